import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import pino from 'pino';
import { MemoryNumberSource } from '../../src/families/whois/adapters/rdap/memory-number-source.js';
import { RdapRegistrationSource } from '../../src/families/whois/adapters/rdap/rdap-registration-source.js';
import { parseIpAddress, type IpAddress } from '../../src/families/whois/domain/ip-address.js';
import type {
  AutonomousSystemRegistration,
  NetworkRegistration,
} from '../../src/families/whois/domain/number-registration.js';
import type { NumberRegistrationSource } from '../../src/families/whois/domain/ports.js';
import { OutboundGuard } from '../../src/platform/upstream/outbound-guard.js';
import { startRdapFixture, type RdapFixture } from '../support/registry-fixtures.js';

const address = (text: string): IpAddress => {
  const parsed = parseIpAddress(text, 'address');
  if (E.isLeft(parsed)) throw new Error(parsed.left);
  return parsed.right;
};

const HOLDER = {
  handle: 'ORG-RIEN1-RIPE',
  name: 'Reseaux IP Europeens Network Coordination Centre (RIPE NCC)',
  country: null,
};
const ABUSE = { handle: 'OPS4-RIPE', name: 'RIPE NCC Operations', email: 'abuse@ripe.net', phone: '+31 20 535 4444' };

/** The same holdings in every source: RIPE NCC's IPv4 and IPv6 networks and its AS number. */
const IPV4: Omit<NetworkRegistration, 'rdapUrl'> = {
  handle: '193.0.0.0 - 193.0.7.255',
  name: 'RIPE-NCC',
  type: 'ASSIGNED PA',
  country: 'NL',
  status: ['active'],
  registrant: HOLDER,
  abuse: ABUSE,
  created: '2003-03-17T12:15:57.000Z',
  updated: '2024-07-01T09:04:45.000Z',
  ipVersion: 'v4',
  startAddress: '193.0.0.0',
  endAddress: '193.0.7.255',
  cidrs: ['193.0.0.0/21'],
  parentHandle: '193.0.0.0 - 193.0.23.255',
};
const IPV6: Omit<NetworkRegistration, 'rdapUrl'> = {
  ...IPV4,
  handle: '2001:67c:2e8::/48',
  type: 'ASSIGNED',
  ipVersion: 'v6',
  startAddress: '2001:67c:2e8::',
  endAddress: '2001:67c:2e8:ffff:ffff:ffff:ffff:ffff',
  cidrs: ['2001:67c:2e8::/48'],
  parentHandle: '2001:600::/23',
};
const AS3333: Omit<AutonomousSystemRegistration, 'rdapUrl'> = {
  handle: 'AS3333',
  name: 'RIPE-NCC-AS',
  type: 'DIRECT ALLOCATION',
  country: null,
  status: ['active'],
  registrant: HOLDER,
  abuse: ABUSE,
  created: '2002-09-17T10:42:05.000Z',
  updated: '2025-01-15T14:21:10.000Z',
  startAutnum: 3333,
  endAutnum: 3333,
};

const silent = pino({ level: 'silent' });
/** The registry's fixture is on loopback, where the services a bootstrap file names are refused unless allowed. */
const LOOPBACK_ALLOWED = new OutboundGuard(['127.0.0.0/8']);

const adapters: { name: string; open: () => Promise<{ source: NumberRegistrationSource; close(): Promise<void> }> }[] =
  [
    {
      name: 'memory',
      open: async () => ({
        source: new MemoryNumberSource({
          servedNetworks: ['193.0.0.0/8', '2001:600::/23'],
          servedAsNumbers: [{ from: 3154, to: 3353 }],
          networks: new Map([
            ['193.0.0.0/21', { ...IPV4, rdapUrl: 'memory:ip/193.0.0.0/21' }],
            ['2001:67c:2e8::/48', { ...IPV6, rdapUrl: 'memory:ip/2001:67c:2e8::/48' }],
          ]),
          autonomousSystems: [{ ...AS3333, rdapUrl: 'memory:autnum/3333' }],
        }),
        close: async () => {},
      }),
    },
    {
      name: 'RDAP over HTTP, through IANA-format bootstrap files',
      open: async () => {
        const fixture: RdapFixture = await startRdapFixture();
        const { rdapIpv4BootstrapUrl, rdapIpv6BootstrapUrl, rdapAsnBootstrapUrl } = fixture.numberBootstrapUrls;
        return {
          source: new RdapRegistrationSource(
            {
              bootstrapUrl: fixture.bootstrapUrl,
              ipv4BootstrapUrl: rdapIpv4BootstrapUrl,
              ipv6BootstrapUrl: rdapIpv6BootstrapUrl,
              asnBootstrapUrl: rdapAsnBootstrapUrl,
              timeoutMs: 1_000,
              ttlMs: 60_000,
              maxEntries: 10,
            },
            silent,
            { guard: LOOPBACK_ALLOWED },
          ),
          close: () => fixture.close(),
        };
      },
    },
  ];

for (const adapter of adapters) {
  describe(`contract: NumberRegistrationSource (${adapter.name})`, () => {
    let source: NumberRegistrationSource;
    let close: () => Promise<void>;
    before(async () => {
      ({ source, close } = await adapter.open());
    });
    after(() => close());

    it('finds the network that holds an IPv4 address and an IPv6 address', async () => {
      const v4 = await source.network(address('193.0.6.139'));
      if (v4.kind !== 'found') expect.fail(`expected a network, got ${JSON.stringify(v4)}`);
      expect(v4.registration).to.deep.include(IPV4);
      const v6 = await source.network(address('2001:67c:2e8::2'));
      if (v6.kind !== 'found') expect.fail(`expected a network, got ${JSON.stringify(v6)}`);
      expect(v6.registration).to.deep.include(IPV6);
    });

    it('finds the block that holds an AS number', async () => {
      const found = await source.autonomousSystem(3333);
      if (found.kind !== 'found') expect.fail(`expected an AS block, got ${JSON.stringify(found)}`);
      expect(found.registration).to.deep.include(AS3333);
    });

    it('says "not found" inside a block it serves, "no service" outside every block it serves', async () => {
      expect(await source.network(address('193.0.10.1'))).to.deep.equal({ kind: 'not-found' });
      expect(await source.network(address('2001:600::1'))).to.deep.equal({ kind: 'not-found' });
      expect(await source.autonomousSystem(3334)).to.deep.equal({ kind: 'not-found' });
      expect(await source.network(address('1.1.1.1'))).to.deep.equal({ kind: 'no-service' });
      expect(await source.network(address('2600::1'))).to.deep.equal({ kind: 'no-service' });
      expect(await source.autonomousSystem(1)).to.deep.equal({ kind: 'no-service' });
    });
  });
}
