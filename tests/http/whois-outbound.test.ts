import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';
import {
  EXAMPLE_COM_RDAP,
  EXAMPLE_NET_WHOIS,
  RIPE_NCC_IPV4_RDAP,
  startWhoisServer,
  type WhoisServerFixture,
} from '../support/registry-fixtures.js';

/**
 * Request forgery through domain lookups: registries' answers naming internal services as the
 * next server. Everything runs on loopback, so the "public" registries listen on 127.0.0.2, the
 * one network the server allows, and the internal services on 127.0.0.1, which it does not.
 * The root WHOIS server and the RDAP bootstrap file are the operator's and are trusted.
 */

const SECRET = 'SECRET-7f3a9c: the admin password is hunter2';
const SMTP_BANNER = '220 mail.internal.example ESMTP ready';
/** The "public" side: registries that answer honestly. */
const PUBLIC = '127.0.0.2';

/** A TCP service that speaks first (a banner, a secret) and closes after the first line it hears, counting who connected. */
interface TalkingService {
  readonly address: string;
  readonly port: number;
  readonly connections: () => number;
  close(): Promise<void>;
}

async function startTalkingService(greeting: string): Promise<TalkingService> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.write(`${greeting}\r\n`);
    socket.once('data', () => socket.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: '127.0.0.1',
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An internal JSON service that would answer anything as an RDAP domain object carrying a secret. */
const internalRdap = () =>
  startFixtureServer({
    recordings: () => ({
      body: {
        ...EXAMPLE_COM_RDAP,
        entities: [
          { objectClassName: 'entity', roles: ['registrar'], vcardArray: ['vcard', [['fn', {}, 'text', SECRET]]] },
        ],
      },
    }),
  });

describe('http: domain lookups connect only where the operator allows (against loopback registries and internal services)', () => {
  let secretService: TalkingService;
  let smtp: TalkingService;
  let internalHttp: FixtureServer;
  let registry: FixtureServer;
  let bootstrap: FixtureServer;
  /** IANA's number files, naming the public registry and, for some blocks, the internal service. */
  let numbers: FixtureServer;
  let tld: WhoisServerFixture;
  let root: WhoisServerFixture;
  let logDir: string;
  let logFd: number;

  before(async () => {
    secretService = await startTalkingService(SECRET);
    smtp = await startTalkingService(SMTP_BANNER);
    internalHttp = await internalRdap();
    const secretAt = `${secretService.address}:${secretService.port}`;
    registry = await startFixtureServer({
      host: PUBLIC,
      recordings: (path) => {
        if (path === '/rdap/domain/example.com') return { body: EXAMPLE_COM_RDAP };
        if (path === '/rdap/domain/moved.com')
          return { status: 301, body: '', headers: { location: '/rdap/domain/example.com' } };
        // Another host, named by no bootstrap entry: localhost is the internal service under another name.
        if (path === '/rdap/domain/elsewhere.com')
          return {
            status: 302,
            body: '',
            headers: { location: `http://localhost:${new URL(internalHttp.url).port}/rdap/domain/x.com` },
          };
        // A registry the bootstrap names (.org's), on an address the guard refuses.
        if (path === '/rdap/domain/toregistry.com')
          return { status: 307, body: '', headers: { location: `${internalHttp.url}/rdap/domain/x.org` } };
        if (path === '/rdap/ip/193.0.6.139') return { body: RIPE_NCC_IPV4_RDAP };
        // A regional registry sending an address it "transferred" to a host no bootstrap file names.
        if (path === '/rdap/ip/193.0.6.140')
          return {
            status: 301,
            body: '',
            headers: { location: `http://localhost:${new URL(internalHttp.url).port}/rdap/ip/193.0.6.140` },
          };
        // ... and to a registry the file does name, on an address the guard refuses.
        if (path === '/rdap/autnum/3333')
          return { status: 302, body: '', headers: { location: `${internalHttp.url}/rdap/autnum/3333` } };
        return undefined;
      },
    });
    bootstrap = await startFixtureServer({
      recordings: {
        '/dns.json': {
          body: {
            version: '1.0',
            services: [
              [['com'], [`${registry.url}/rdap/`]],
              [['org'], [`${internalHttp.url}/rdap/`]],
            ],
          },
        },
      },
    });
    const numberBootstrap = (blocks: string[], internal: string[]) => ({
      body: {
        version: '1.0',
        services: [
          [blocks, [`${registry.url}/rdap/`]],
          [internal, [`${internalHttp.url}/rdap/`]],
        ],
      },
    });
    numbers = await startFixtureServer({
      recordings: {
        '/ipv4.json': numberBootstrap(['193.0.0.0/8'], ['194.0.0.0/8']),
        '/ipv6.json': numberBootstrap(['2001:600::/23'], ['2a00::/12']),
        '/asn.json': numberBootstrap(['3154-3353'], ['196608-210331']),
      },
    });
    tld = await startWhoisServer((query) => {
      if (query === 'hostile.net')
        return EXAMPLE_NET_WHOIS.replace('EXAMPLE.NET', 'HOSTILE.NET').replace('{SELF}', secretAt);
      return EXAMPLE_NET_WHOIS.replace('{SELF}', tld.server);
    }, PUBLIC);
    const referrals: Readonly<Record<string, string>> = {
      uk: secretAt,
      io: `localhost:${smtp.port}`,
      me: `[::ffff:127.0.0.1]:${secretService.port}`,
      tv: `2130706433:${secretService.port}`,
      net: tld.server,
    };
    root = await startWhoisServer((query) => {
      const tldOf = query.slice(query.lastIndexOf('.') + 1).toLowerCase();
      const refer = referrals[tldOf];
      return refer === undefined
        ? `domain:       ${tldOf.toUpperCase()}\n\nstatus:       ACTIVE\n`
        : `refer:        ${refer}\n\ndomain:       ${tldOf.toUpperCase()}\n`;
    });
    logDir = mkdtempSync(join(tmpdir(), 'utility-api-outbound-'));
    logFd = openSync(join(logDir, 'server.log'), 'w');
  });
  after(async () => {
    closeSync(logFd);
    rmSync(logDir, { recursive: true, force: true });
    await Promise.all([
      secretService.close(),
      smtp.close(),
      internalHttp.close(),
      registry.close(),
      bootstrap.close(),
      numbers.close(),
      tld.close(),
      root.close(),
    ]);
  });

  const serve = (allowedNetworks: string[], fd?: number) =>
    startServer({
      logFd: fd,
      overrides: {
        ...(fd !== undefined && { log: { level: 'info' } }),
        whois: {
          rdapBootstrapUrl: `${bootstrap.url}/dns.json`,
          rdapIpv4BootstrapUrl: `${numbers.url}/ipv4.json`,
          rdapIpv6BootstrapUrl: `${numbers.url}/ipv6.json`,
          rdapAsnBootstrapUrl: `${numbers.url}/asn.json`,
          whoisServer: root.server,
          registrationTimeoutMs: 1_000,
        },
        outbound: { allowedNetworks },
      },
    });

  describe(`with ${PUBLIC}/32 alone allowed`, () => {
    let server: TestServer;
    let token: string;
    before(async () => {
      server = await serve([`${PUBLIC}/32`], logFd);
      token = await server.tokenFor(['Whois::*']);
    });
    after(() => server.close());

    const whois = (domain: string, requestId: string) =>
      server.get(`/api/whois/whois?domain=${domain}&raw=true`, {
        Authorization: `Bearer ${token}`,
        'X-Request-Id': requestId,
      });
    // raw=true asks for WHOIS text, which an RDAP registration has none of (400 code 7).
    const rdap = (domain: string, requestId: string) =>
      server.get(`/api/whois/whois?domain=${domain}`, { Authorization: `Bearer ${token}`, 'X-Request-Id': requestId });
    /** What the server logged for one request, as text. */
    const logOf = (requestId: string): string => {
      server.app.flushLogs();
      return readFileSync(join(logDir, 'server.log'), 'utf8')
        .split('\n')
        .filter((line) => line.includes(`"requestId":"${requestId}"`) && !line.includes('"msg":"request"'))
        .join('\n');
    };
    /** 502 code 29, nothing of the target's in it, and the reason in the log. */
    const expectRefused = async (response: Response, requestId: string, reason: RegExp) => {
      const text = await response.clone().text();
      await expectError(response, 502, 29);
      expect(text).not.to.include('SECRET').and.not.to.include('hunter2').and.not.to.include('ESMTP');
      expect(logOf(requestId)).to.match(reason);
    };

    it('refuses a WHOIS referral to a loopback address and never connects to it', async () => {
      await expectRefused(
        await whois('victim.co.uk', 'ssrf-literal'),
        'ssrf-literal',
        /refused to connect to 127\.0\.0\.1: loopback/,
      );
      expect(secretService.connections()).to.equal(0);
    });

    it('refuses a referral to a name that resolves to loopback (an SMTP server behind localhost)', async () => {
      await expectRefused(
        await whois('victim.io', 'ssrf-name'),
        'ssrf-name',
        /refused to connect to localhost \(127\.0\.0\.1\): loopback/,
      );
      expect(smtp.connections()).to.equal(0);
    });

    it('refuses loopback written as IPv4-mapped IPv6 or as one decimal number', async () => {
      await expectRefused(
        await whois('victim.me', 'ssrf-mapped'),
        'ssrf-mapped',
        /refused to connect to ::ffff:127\.0\.0\.1: loopback/,
      );
      await expectRefused(
        await whois('victim.tv', 'ssrf-decimal'),
        'ssrf-decimal',
        /refused to connect to 2130706433 \(127\.0\.0\.1\): loopback/,
      );
      expect(secretService.connections()).to.equal(0);
    });

    it("gives the registry's answer, never the target's, when a registry names a refused registrar server", async () => {
      const response = await whois('hostile.net', 'ssrf-registrar');
      expect(response.status).to.equal(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).to.deep.include({ source: 'whois', whoisServer: tld.server });
      expect(body.raw).to.include('HOSTILE.NET').and.not.to.include('hunter2');
      expect(logOf('ssrf-registrar')).to.match(/refused to connect to 127\.0\.0\.1: loopback/);
      expect(secretService.connections()).to.equal(0);
      // The registry itself is on the allowed network, and followed as ever.
      const allowed = await whois('example.net', 'allowed-registry');
      expect(allowed.status).to.equal(200);
      expect(await allowed.json()).to.deep.include({ source: 'whois', whoisServer: tld.server });
    });

    it('refuses an RDAP registry the bootstrap file names on a refused address', async () => {
      await expectRefused(
        await rdap('victim.org', 'rdap-registry'),
        'rdap-registry',
        /unreachable: refused to connect to 127\.0\.0\.1: loopback/,
      );
      expect(internalHttp.calls).to.deep.equal([]);
    });

    it('follows an RDAP redirect on the same host, and none to another host, even a registry the guard refuses', async () => {
      const moved = await rdap('moved.com', 'rdap-same-host');
      expect(moved.status).to.equal(200);
      expect(await moved.json()).to.deep.include({
        source: 'rdap',
        registrar: {
          name: 'RESERVED-Internet Assigned Numbers Authority',
          ianaId: '376',
          url: 'https://www.iana.org/',
        },
      });
      await expectRefused(
        await rdap('elsewhere.com', 'rdap-elsewhere'),
        'rdap-elsewhere',
        /redirected to http:\/\/localhost:\d+, which is not followed/,
      );
      await expectRefused(
        await rdap('toregistry.com', 'rdap-registry-redirect'),
        'rdap-registry-redirect',
        /unreachable: refused to connect to 127\.0\.0\.1: loopback/,
      );
      expect(internalHttp.calls).to.deep.equal([]);
    });

    it('looks IP networks and AS numbers up through the same guard: a registry on a refused address is never reached', async () => {
      const number = (path: string, requestId: string) =>
        server.get(path, { Authorization: `Bearer ${token}`, 'X-Request-Id': requestId });
      const allowed = await number('/api/whois/ip?address=193.0.6.139', 'ip-allowed');
      expect(allowed.status).to.equal(200);
      expect(await allowed.json()).to.deep.include({
        name: 'RIPE-NCC',
        rdapUrl: `${registry.url}/rdap/ip/193.0.6.139`,
      });
      for (const [path, requestId] of [
        ['/api/whois/ip?address=194.0.0.1', 'ip-registry'],
        ['/api/whois/ip?address=2a00::1', 'ipv6-registry'],
        ['/api/whois/asn?asn=196608', 'asn-registry'],
      ] as const)
        await expectRefused(
          await number(path, requestId),
          requestId,
          /unreachable: refused to connect to 127\.0\.0\.1: loopback/,
        );
      expect(internalHttp.calls).to.deep.equal([]);
    });

    it("follows a number registry's redirect to no other host, even a registry the file names on a refused address", async () => {
      const number = (path: string, requestId: string) =>
        server.get(path, { Authorization: `Bearer ${token}`, 'X-Request-Id': requestId });
      await expectRefused(
        await number('/api/whois/ip?address=193.0.6.140', 'ip-elsewhere'),
        'ip-elsewhere',
        /redirected to http:\/\/localhost:\d+, which is not followed/,
      );
      await expectRefused(
        await number('/api/whois/asn?asn=AS3333', 'asn-redirect'),
        'asn-redirect',
        /unreachable: refused to connect to 127\.0\.0\.1: loopback/,
      );
      expect(internalHttp.calls).to.deep.equal([]);
    });
  });

  describe('with the network listed in outbound.allowedNetworks', () => {
    let server: TestServer;
    let token: string;
    before(async () => {
      server = await serve(['127.0.0.0/8']);
      token = await server.tokenFor(['Whois::*']);
    });
    after(() => server.close());

    it('connects where the operator allows: the referral is followed and answers', async () => {
      const response = await server.get('/api/whois/whois?domain=victim.co.uk&raw=true', {
        Authorization: `Bearer ${token}`,
      });
      expect(response.status).to.equal(200);
      expect(((await response.json()) as { raw: string }).raw).to.include(SECRET);
      const redirected = await server.get('/api/whois/whois?domain=toregistry.com', {
        Authorization: `Bearer ${token}`,
      });
      expect(redirected.status).to.equal(200);
      expect(internalHttp.calls).to.deep.equal(['/rdap/domain/x.org']);
    });
  });
});
