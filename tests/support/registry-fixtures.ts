import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import { startFixtureServer, type FixtureServer, type Recorded } from './fixture-server.js';
import { networkHolds, parseIpAddress, parseNetwork } from '../../src/families/whois/domain/ip-address.js';

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

/** A regional registry's organisation as RDAP entities carry it, its abuse contact inside, as RIPE's service nests them. */
const RIPE_NCC_REGISTRANT = {
  objectClassName: 'entity',
  handle: 'ORG-RIEN1-RIPE',
  roles: ['registrant'],
  vcardArray: vcard(
    ['fn', {}, 'text', 'Reseaux IP Europeens Network Coordination Centre (RIPE NCC)'],
    ['kind', {}, 'text', 'org'],
    ['adr', { label: 'P.O. Box 10096\n1001EB\nAmsterdam\nNETHERLANDS' }, 'text', ['', '', '', '', '', '', '']],
  ),
};
const RIPE_NCC_ABUSE = {
  objectClassName: 'entity',
  handle: 'OPS4-RIPE',
  roles: ['abuse'],
  vcardArray: vcard(
    ['fn', {}, 'text', 'RIPE NCC Operations'],
    ['kind', {}, 'text', 'group'],
    ['email', { type: 'abuse' }, 'text', 'abuse@ripe.net'],
    ['tel', { type: 'voice' }, 'text', '+31 20 535 4444'],
  ),
};
const RIPE_EVENTS = [
  { eventAction: 'registration', eventDate: '2003-03-17T12:15:57Z' },
  { eventAction: 'last changed', eventDate: '2024-07-01T09:04:45Z' },
];
const RDAP_CONFORMANCE = ['rdap_level_0', 'cidr0'];

/** An RDAP IP network object for an IPv4 block (RFC 9083 §5.4), with the cidr0 extension's prefixes. */
export const RIPE_NCC_IPV4_RDAP = {
  rdapConformance: RDAP_CONFORMANCE,
  objectClassName: 'ip network',
  handle: '193.0.0.0 - 193.0.7.255',
  startAddress: '193.0.0.0',
  endAddress: '193.0.7.255',
  ipVersion: 'v4',
  name: 'RIPE-NCC',
  type: 'ASSIGNED PA',
  country: 'NL',
  parentHandle: '193.0.0.0 - 193.0.23.255',
  status: ['active'],
  cidr0_cidrs: [{ v4prefix: '193.0.0.0', length: 21 }],
  entities: [RIPE_NCC_REGISTRANT, RIPE_NCC_ABUSE],
  events: RIPE_EVENTS,
  links: [{ rel: 'self', href: 'https://rdap.db.ripe.net/ip/193.0.0.0/21', type: 'application/rdap+json' }],
};

/** An RDAP IP network object for an IPv6 block, written with a needless zero the answer drops. */
export const RIPE_NCC_IPV6_RDAP = {
  rdapConformance: RDAP_CONFORMANCE,
  objectClassName: 'ip network',
  handle: '2001:67c:2e8::/48',
  startAddress: '2001:067c:02e8:0000::',
  endAddress: '2001:67c:2e8:ffff:ffff:ffff:ffff:ffff',
  ipVersion: 'v6',
  name: 'RIPE-NCC',
  type: 'ASSIGNED',
  country: 'NL',
  parentHandle: '2001:600::/23',
  status: ['active'],
  cidr0_cidrs: [{ v6prefix: '2001:67c:2e8::', length: 48 }],
  entities: [RIPE_NCC_REGISTRANT, RIPE_NCC_ABUSE],
  events: RIPE_EVENTS,
};

/** An RDAP autnum object (RFC 9083 §5.5); RIPE's give no country, so this one does not either. */
export const RIPE_NCC_AS_RDAP = {
  rdapConformance: ['rdap_level_0'],
  objectClassName: 'autnum',
  handle: 'AS3333',
  startAutnum: 3333,
  endAutnum: 3333,
  name: 'RIPE-NCC-AS',
  type: 'DIRECT ALLOCATION',
  status: ['active'],
  entities: [{ ...RIPE_NCC_REGISTRANT, entities: [RIPE_NCC_ABUSE] }],
  events: [
    { eventAction: 'registration', eventDate: '2002-09-17T10:42:05Z' },
    { eventAction: 'last changed', eventDate: '2025-01-15T14:21:10Z' },
  ],
};

/** The networks the fixture's registry holds: every address of one answers its object, as a registry does. */
const HELD_NETWORKS = [
  { network: parseNetwork('193.0.0.0/21')!, object: RIPE_NCC_IPV4_RDAP },
  { network: parseNetwork('2001:67c:2e8::/48')!, object: RIPE_NCC_IPV6_RDAP },
];

const rdapAnswer = (body: unknown): Recorded => ({ body, headers: { 'content-type': 'application/rdap+json' } });

/** The object of `/rdap/ip/<address>` or `/rdap/autnum/<number>`, if the registry holds one. */
function numberObjectOf(path: string): Recorded | undefined {
  const ip = /^\/rdap\/ip\/([^/?]+)$/.exec(path);
  if (ip) {
    const address = parseIpAddress(decodeURIComponent(ip[1]!), 'address');
    const held = E.isRight(address) && HELD_NETWORKS.find(({ network }) => networkHolds(network, address.right));
    return held ? rdapAnswer(held.object) : undefined;
  }
  return path === '/rdap/autnum/3333' ? rdapAnswer(RIPE_NCC_AS_RDAP) : undefined;
}

export interface RdapFixture extends FixtureServer {
  /** The bootstrap file's URL, for `whois.rdapBootstrapUrl`. */
  readonly bootstrapUrl: string;
  /** The number bootstrap files' URLs, for `whois.rdapIpv4BootstrapUrl` and its siblings. */
  readonly numberBootstrapUrls: {
    readonly rdapIpv4BootstrapUrl: string;
    readonly rdapIpv6BootstrapUrl: string;
    readonly rdapAsnBootstrapUrl: string;
  };
}

/**
 * An RDAP service for `.com` (and `.xn--p1ai`) at `/rdap/`, its bootstrap file at `/dns.json`,
 * which also sends `.net` to a service that refuses connections. A domain it lacks is 404.
 * It is a regional registry too, in IANA's files at `/ipv4.json`, `/ipv6.json` and `/asn.json`:
 * it serves 193.0.0.0/8, 2001:600::/23 and AS3154-3353 and holds RIPE NCC's own network in each
 * (193.0.0.0/21, 2001:67c:2e8::/48, AS3333); 8.0.0.0/8 and AS15169 are sent to a service that
 * refuses connections.
 */
export async function startRdapFixture(
  domains: Readonly<Record<string, unknown>> = { 'example.com': EXAMPLE_COM_RDAP },
): Promise<RdapFixture> {
  const recordings: Record<string, Recorded> = {};
  for (const [domain, object] of Object.entries(domains)) recordings[`/rdap/domain/${domain}`] = rdapAnswer(object);
  const fixture = await startFixtureServer({ recordings: (path) => recordings[path] ?? numberObjectOf(path) });
  const bootstrap = (services: unknown[], description?: string): Recorded => ({
    body: {
      ...(description !== undefined && { description }),
      publication: '2026-01-01T00:00:00Z',
      services,
      version: '1.0',
    },
  });
  const down = 'http://127.0.0.1:1/rdap/';
  recordings['/dns.json'] = bootstrap([
    [['com', 'xn--p1ai'], [`${fixture.url}/rdap/`]],
    [['net'], [down]],
  ]);
  recordings['/ipv4.json'] = bootstrap(
    [
      [['193.0.0.0/8', '194.0.0.0/7'], [`${fixture.url}/rdap/`]],
      [['8.0.0.0/8'], [down]],
    ],
    'RDAP bootstrap file for IPv4 address allocations',
  );
  recordings['/ipv6.json'] = bootstrap(
    [[['2001:600::/23', '2a00::/12'], [`${fixture.url}/rdap/`]]],
    'RDAP bootstrap file for IPv6 address allocations',
  );
  recordings['/asn.json'] = bootstrap(
    [
      [['3154-3353', '196608-210331'], [`${fixture.url}/rdap/`]],
      [['15169'], [down]],
    ],
    'RDAP bootstrap file for Autonomous System Number allocations',
  );
  return Object.assign(fixture, {
    bootstrapUrl: `${fixture.url}/dns.json`,
    numberBootstrapUrls: {
      rdapIpv4BootstrapUrl: `${fixture.url}/ipv4.json`,
      rdapIpv6BootstrapUrl: `${fixture.url}/ipv6.json`,
      rdapAsnBootstrapUrl: `${fixture.url}/asn.json`,
    },
  });
}

/** The number bootstrap files of a fixture as the environment names them, for a server started from it. */
export const numberBootstrapsAt = ({ numberBootstrapUrls }: RdapFixture): Record<string, string> => ({
  UTILITY_API_RDAP_IPV4_BOOTSTRAP_URL: numberBootstrapUrls.rdapIpv4BootstrapUrl,
  UTILITY_API_RDAP_IPV6_BOOTSTRAP_URL: numberBootstrapUrls.rdapIpv6BootstrapUrl,
  UTILITY_API_RDAP_ASN_BOOTSTRAP_URL: numberBootstrapUrls.rdapAsnBootstrapUrl,
});

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
