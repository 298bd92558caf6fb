import { expect } from 'chai';
import { MemoryDnsLookup } from '../../src/families/whois/adapters/dns/memory-dns-lookup.js';
import { NodeDnsLookup } from '../../src/families/whois/adapters/dns/node-dns-lookup.js';
import type { DnsLookup } from '../../src/families/whois/domain/ports.js';
import { NO_RECORDS, type DnsRecords } from '../../src/families/whois/domain/records.js';
import { startDnsFixture } from '../support/dns-fixture.js';

/** What both adapters hold: one name with mail and an address, one with a service. */
const MAIL: DnsRecords = {
  ...NO_RECORDS,
  A: ['192.0.2.1'],
  MX: [
    { exchange: 'mx1.example.com', priority: 10 },
    { exchange: 'mx2.example.com', priority: 20 },
  ],
  TXT: ['v=spf1 -all'],
};
const SERVICE: DnsRecords = { ...NO_RECORDS, SRV: [{ name: 'sip.example.com', port: 5060, priority: 10, weight: 60 }] };
/** An address's reverse name, pointing to two names. */
const REVERSE_NAME = '1.2.0.192.in-addr.arpa';
const POINTERS: DnsRecords = { ...NO_RECORDS, PTR: ['example.com', 'mail.example.com'] };

const adapters: { name: string; open: () => Promise<{ dns: DnsLookup; close(): Promise<void> }> }[] = [
  {
    name: 'memory',
    open: async () => ({
      dns: new MemoryDnsLookup(
        new Map([
          ['example.com', MAIL],
          ['_sip._tcp.example.com', SERVICE],
          [REVERSE_NAME, POINTERS],
        ]),
        300_000,
      ),
      close: async () => {},
    }),
  },
  {
    name: 'node:dns against a loopback server',
    open: async () => {
      const fixture = await startDnsFixture({
        'example.com': {
          A: ['192.0.2.1'],
          MX: [
            { exchange: 'mx2.example.com', priority: 20 },
            { exchange: 'mx1.example.com', priority: 10 },
          ],
          TXT: [['v=spf1 ', '-all']],
        },
        '_sip._tcp.example.com': { SRV: [{ priority: 10, weight: 60, port: 5060, target: 'sip.example.com' }] },
        [REVERSE_NAME]: { PTR: ['example.com', 'mail.example.com'] },
      });
      return { dns: new NodeDnsLookup({ servers: [fixture.server], timeoutMs: 2_000 }), close: () => fixture.close() };
    },
  },
];

for (const adapter of adapters) {
  describe(`contract: DnsLookup (${adapter.name})`, () => {
    let dns: DnsLookup;
    let close: () => Promise<void>;
    before(async () => {
      ({ dns, close } = await adapter.open());
    });
    after(async () => close());

    it("answers a name's records of every type, with the TTL its addresses carry", async () => {
      expect(await dns.records('example.com')).to.deep.equal({ kind: 'found', records: MAIL, ttlMs: 300_000 });
      expect(await dns.records('_sip._tcp.example.com')).to.deep.include({ kind: 'found', records: SERVICE });
    });

    it("answers a reverse name's PTR records", async () => {
      expect(await dns.records(REVERSE_NAME)).to.deep.include({ kind: 'found', records: POINTERS });
    });

    it('says so when a name does not exist', async () => {
      expect(await dns.records('nowhere.example.com')).to.deep.equal({ kind: 'not-found' });
    });
  });
}

describe('NodeDnsLookup: "does not exist" only from a resolver that answered, and answers for the rest of DNS', () => {
  it('a resolver that cannot be reached is a failure that says so', async () => {
    const gone = await startDnsFixture({});
    await gone.close();
    const result = await new NodeDnsLookup({ servers: [gone.server], timeoutMs: 1_000 }).records('example.com');
    expect(result).to.deep.include({
      kind: 'unavailable',
      reason: 'failure',
      details: 'no DNS resolver could be reached (ECONNREFUSED)',
    });
  });

  it('a resolver that answers NXDOMAIN to everything, the root zone included, is a failure, not a name that does not exist', async () => {
    const stub = await startDnsFixture({});
    try {
      stub.behaviour = 'nxdomain';
      const result = await new NodeDnsLookup({ servers: [stub.server], timeoutMs: 1_000 }).records('example.com');
      expect(result).to.deep.include({ kind: 'unavailable', reason: 'failure' });
      expect(stub.queries).to.include('NS ');
    } finally {
      await stub.close();
    }
  });
});
