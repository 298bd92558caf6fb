import { expect } from 'chai';
import pino from 'pino';
import { RdapRegistrationSource } from '../../src/families/whois/adapters/rdap/rdap-registration-source.js';
import { OutboundGuard } from '../../src/platform/upstream/outbound-guard.js';
import { MemoryRegistrationSource } from '../../src/families/whois/adapters/whois/memory-registration-source.js';
import { WhoisRegistrationSource } from '../../src/families/whois/adapters/whois/whois-registration-source.js';
import type { RegistrationSource } from '../../src/families/whois/domain/ports.js';
import type { Registration } from '../../src/families/whois/domain/registration.js';
import { startRegistries, type Registries } from '../support/registry-fixtures.js';

/** The same registration, as every source holds it; where it came from is each source's own. */
const IANA_RESERVED: Omit<Registration, 'source'> = {
  registrar: { name: 'RESERVED-Internet Assigned Numbers Authority', ianaId: '376', url: null },
  created: '1995-08-14T04:00:00.000Z',
  updated: null,
  expires: '2026-08-13T04:00:00.000Z',
  status: [{ code: 'clientTransferProhibited', description: 'client transfer prohibited' }],
  nameservers: ['a.iana-servers.net', 'b.iana-servers.net'],
  dnssec: true,
  registrant: null,
};
const COMMON_FIELDS = ['created', 'expires', 'nameservers', 'dnssec'] as const;

interface World {
  readonly source: RegistrationSource;
  /** A domain it holds, one of a TLD it serves that it does not, and one of a TLD it does not serve. */
  readonly held: string;
  readonly missing: string;
  readonly unserved: string;
  close(): Promise<void>;
}

/** The registries' fixtures are on loopback, where the servers they name are refused unless allowed. */
const LOOPBACK_ALLOWED = new OutboundGuard(['127.0.0.0/8']);
const silent = pino({ level: 'silent' });

let registries: Registries | undefined;
const shared = async () => (registries ??= await startRegistries());

const adapters: { name: string; open: () => Promise<World> }[] = [
  {
    name: 'memory',
    open: async () => ({
      source: new MemoryRegistrationSource(new Map([['example.com', { ...IANA_RESERVED, source: 'rdap' }]])),
      held: 'example.com',
      missing: 'unknown.com',
      unserved: 'nothing.zz',
      close: async () => {},
    }),
  },
  {
    name: 'RDAP over HTTP',
    open: async () => {
      const { rdap } = await shared();
      return {
        source: new RdapRegistrationSource(
          { bootstrapUrl: rdap.bootstrapUrl, timeoutMs: 1_000, ttlMs: 60_000, maxEntries: 10 },
          silent,
          { guard: LOOPBACK_ALLOWED },
        ),
        held: 'example.com',
        missing: 'unknown.com',
        unserved: 'nothing.zz',
        close: async () => {},
      };
    },
  },
  {
    name: 'WHOIS over port 43',
    open: async () => {
      const { root } = await shared();
      return {
        source: new WhoisRegistrationSource(
          { server: root.server, timeoutMs: 1_000 },
          { guard: LOOPBACK_ALLOWED, logger: silent },
        ),
        held: 'example.net',
        missing: 'unknown.net',
        unserved: 'nothing.zz',
        close: async () => {},
      };
    },
  },
];

for (const adapter of adapters) {
  describe(`contract: RegistrationSource (${adapter.name})`, () => {
    let world: World;
    before(async () => {
      world = await adapter.open();
    });
    after(async () => {
      await world.close();
      await registries?.close();
      registries = undefined;
    });

    it('finds a registration it holds', async () => {
      const result = await world.source.registration(world.held);
      if (result.kind !== 'found') expect.fail(`expected a registration, got ${JSON.stringify(result)}`);
      for (const field of COMMON_FIELDS) expect(result.registration[field], field).to.deep.equal(IANA_RESERVED[field]);
      expect(result.registration.registrar).to.deep.include({ name: IANA_RESERVED.registrar!.name, ianaId: '376' });
      expect(result.registration.status.map((status) => status.code)).to.include('clientTransferProhibited');
    });

    it('says "not found" for a domain of a TLD it serves, "no service" for a TLD it does not', async () => {
      expect(await world.source.registration(world.missing)).to.deep.equal({ kind: 'not-found' });
      expect(await world.source.registration(world.unserved)).to.deep.equal({ kind: 'no-service' });
    });
  });
}
