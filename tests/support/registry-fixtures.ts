import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startFixtureServer, type FixtureServer, type Recorded } from './fixture-server.js';

/**
 * Registries on loopback, answering from texts and objects this project wrote in the shapes the
 * registries publish: an RDAP service that also serves the bootstrap file pointing at itself, and
 * port-43 WHOIS servers.
 */

const vcard = (...properties: unknown[][]) => ['vcard', [['version', {}, 'text', '4.0'], ...properties]];

/** An RDAP domain object as a gTLD registry answers it (RFC 9083), registrant redacted as ICANN's policy has it. */
export const EXAMPLE_COM_RDAP = {
  objectClassName: 'domain',
  ldhName: 'EXAMPLE.COM',
  handle: '2336799_DOMAIN_COM-VRSN',
  links: [{ rel: 'self', href: 'https://rdap.example/domain/EXAMPLE.COM', type: 'application/rdap+json' }],
  status: ['client delete prohibited', 'client transfer prohibited', 'client update prohibited'],
  entities: [
    {
      objectClassName: 'entity',
      handle: '376',
      roles: ['registrar'],
      publicIds: [{ type: 'IANA Registrar ID', identifier: '376' }],
      vcardArray: vcard(['fn', {}, 'text', 'RESERVED-Internet Assigned Numbers Authority']),
      links: [{ rel: 'about', href: 'https://www.iana.org/', type: 'text/html' }],
      entities: [
        {
          objectClassName: 'entity',
          roles: ['abuse'],
          vcardArray: vcard(['fn', {}, 'text', 'Abuse desk'], ['email', {}, 'text', 'abuse@iana.org']),
        },
      ],
    },
    {
      objectClassName: 'entity',
      roles: ['registrant'],
      vcardArray: vcard(
        ['fn', {}, 'text', ''],
        ['org', {}, 'text', 'REDACTED FOR PRIVACY'],
        ['adr', { cc: 'US' }, 'text', ['', '', '', '', 'CA', '', '']],
      ),
      remarks: [{ title: 'REDACTED FOR PRIVACY', description: ['Some of the data in this object has been removed.'] }],
    },
  ],
  events: [
    { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
    { eventAction: 'expiration', eventDate: '2026-08-13T04:00:00Z' },
    { eventAction: 'last changed', eventDate: '2025-08-14T07:01:39Z' },
    { eventAction: 'last update of RDAP database', eventDate: '2026-01-01T00:00:00Z' },
  ],
  secureDNS: { delegationSigned: true },
  nameservers: [
    { objectClassName: 'nameserver', ldhName: 'A.IANA-SERVERS.NET' },
    { objectClassName: 'nameserver', ldhName: 'B.IANA-SERVERS.NET' },
  ],
};

export interface RdapFixture extends FixtureServer {
  /** The bootstrap file's URL, for `whois.rdapBootstrapUrl`. */
  readonly bootstrapUrl: string;
}

/**
 * An RDAP service for `.com` (and `.xn--p1ai`) at `/rdap/`, its bootstrap file at `/dns.json`,
 * which also sends `.net` to a service that refuses connections. A domain it lacks is 404.
 */
export async function startRdapFixture(
  domains: Readonly<Record<string, unknown>> = { 'example.com': EXAMPLE_COM_RDAP },
): Promise<RdapFixture> {
  const recordings: Record<string, Recorded> = {};
  for (const [domain, object] of Object.entries(domains))
    recordings[`/rdap/domain/${domain}`] = { body: object, headers: { 'content-type': 'application/rdap+json' } };
  const fixture = await startFixtureServer({ recordings });
  recordings['/dns.json'] = {
    body: {
      version: '1.0',
      publication: '2026-01-01T00:00:00Z',
      services: [
        [['com', 'xn--p1ai'], [`${fixture.url}/rdap/`]],
        [['net'], ['http://127.0.0.1:1/rdap/']],
      ],
    },
  };
  return Object.assign(fixture, { bootstrapUrl: `${fixture.url}/dns.json` });
}

/** What a port-43 server does with a question: answer it, never answer, or send 1 MB. */
export type WhoisBehaviour = 'normal' | 'hang' | 'flood';

export interface WhoisServerFixture {
  /** `<host>:<port>`, as a setting or a referral names it. */
  readonly server: string;
  behaviour: WhoisBehaviour;
  /** Every question asked, without its CRLF, in order. */
  readonly queries: string[];
  close(): Promise<void>;
}

/** A port-43 WHOIS server on a loopback address: reads one line, writes `answer(line)`, closes. */
export async function startWhoisServer(
  answer: (query: string) => string,
  host = '127.0.0.1',
): Promise<WhoisServerFixture> {
  const queries: string[] = [];
  const sockets = new Set<Socket>();
  const state = { behaviour: 'normal' as WhoisBehaviour };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const end = received.indexOf('\r\n');
      if (end < 0) return;
      const query = received.slice(0, end);
      queries.push(query);
      if (state.behaviour === 'hang') return;
      if (state.behaviour === 'flood') return void socket.end(Buffer.alloc(1024 * 1024, 'a'));
      socket.end(answer(query));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    server: `${host}:${port}`,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

/** An ICANN-style registry answer (thick), as `.net`'s would be. */
export const EXAMPLE_NET_WHOIS = `   Domain Name: EXAMPLE.NET
   Registry Domain ID: 1234_DOMAIN_NET-VRSN
   Registrar WHOIS Server: {SELF}
   Registrar URL: http://res-dom.iana.org
   Updated Date: 2024-08-14T07:01:34Z
   Creation Date: 1995-08-14T04:00:00Z
   Registry Expiry Date: 2026-08-13T04:00:00Z
   Registrar: RESERVED-Internet Assigned Numbers Authority
   Registrar IANA ID: 376
   Domain Status: clientDeleteProhibited https://icann.org/epp#clientDeleteProhibited
   Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited
   Name Server: A.IANA-SERVERS.NET
   Name Server: B.IANA-SERVERS.NET
   DNSSEC: signedDelegation
>>> Last update of whois database: 2026-01-01T00:00:00Z <<<

NOTICE: The expiration date displayed in this record is the date the
registrar's sponsorship of the domain name registration in the registry is
currently set to expire.
`;

/** Nominet's layout for `.uk`: keys alone on a line, their values indented below. */
export const BBC_CO_UK_WHOIS = `
    Domain name:
        bbc.co.uk

    Data validation:
        Nominet was not able to match the registrant's name and/or address against a 3rd party source on 10-Dec-2012

    Registrar:
        British Broadcasting Corporation [Tag = BBC]
        URL: http://www.bbc.co.uk

    Relevant dates:
        Registered on: before Aug-1996
        Expiry date:  13-Dec-2026
        Last updated:  11-Nov-2024

    Registration status:
        Registered until expiry date.

    Name servers:
        dns0.bbc.co.uk            198.51.100.10
        dns1.bbc.co.uk

    WHOIS lookup made at 10:00:00 01-Jan-2026

--
This WHOIS information is provided for free by Nominet UK the central registry
for .uk domain names.
`;

export interface Registries {
  readonly rdap: RdapFixture;
  /** IANA's stand-in: refers `.uk` and `.net` to `tld`, knows nothing of `.zz`. */
  readonly root: WhoisServerFixture;
  /** The registry of `.uk` and `.net` over port 43. */
  readonly tld: WhoisServerFixture;
  close(): Promise<void>;
}

export async function startRegistries(): Promise<Registries> {
  const rdap = await startRdapFixture();
  const tld: WhoisServerFixture = await startWhoisServer((query) => {
    switch (query.toLowerCase()) {
      case 'bbc.co.uk':
        return BBC_CO_UK_WHOIS;
      case 'example.net':
        // Its registrar's server is itself, as a thick registry's often is: nothing more to follow.
        return EXAMPLE_NET_WHOIS.replace('{SELF}', tld.server);
      default:
        return `No match for "${query.toUpperCase()}".\r\n>>> Last update of whois database: 2026-01-01T00:00:00Z <<<\r\n`;
    }
  });
  const root = await startWhoisServer((query) => {
    const tldOf = query.slice(query.lastIndexOf('.') + 1).toLowerCase();
    const header = '% IANA WHOIS server\n% for more information on IANA, visit http://www.iana.org\n\n';
    if (tldOf === 'uk' || tldOf === 'net')
      return `${header}refer:        ${tld.server}\n\ndomain:       ${tldOf.toUpperCase()}\n\nwhois:        ${tld.server}\n`;
    return `${header}domain:       ${tldOf.toUpperCase()}\n\norganisation: Nobody\n\nstatus:       ACTIVE\n`;
  });
  return {
    rdap,
    root,
    tld,
    close: async () => {
      await Promise.all([rdap.close(), root.close(), tld.close()]);
    },
  };
}
