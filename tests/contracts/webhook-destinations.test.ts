import { expect } from 'chai';
import { GuardedDestinations } from '../../src/families/webhooks/adapters/guarded-destinations.js';
import { MemoryDestinations } from '../../src/families/webhooks/adapters/memory-destinations.js';
import type { WebhookDestinations } from '../../src/families/webhooks/domain/ports.js';
import { cachingHostLookup, serversResolve } from '../../src/platform/upstream/host-lookup.js';
import { OutboundGuard } from '../../src/platform/upstream/outbound-guard.js';
import { startDnsFixture, type DnsFixture } from '../support/dns-fixture.js';

/** The names every adapter knows: by DNS (a loopback fixture server) or by a table in memory. */
const HOSTS: Readonly<Record<string, readonly string[]>> = {
  'public.example.test': ['93.184.215.14'],
  'loopback.example.test': ['127.0.0.1'],
  'metadata.example.test': ['169.254.169.254'],
  'mixed.example.test': ['10.0.0.1', '93.184.215.14'],
  'v6.example.test': ['::1'],
};

let dns: DnsFixture;
const adapters: { name: string; open: (guard: OutboundGuard) => WebhookDestinations }[] = [
  { name: 'memory', open: (guard) => new MemoryDestinations(guard, HOSTS) },
  {
    name: 'guarded, by DNS',
    open: (guard) =>
      new GuardedDestinations(guard, cachingHostLookup({ ttlMs: 1000, resolve: serversResolve([dns.server], 2000) })),
  },
];

before(async () => {
  dns = await startDnsFixture(
    Object.fromEntries(
      Object.entries(HOSTS).map(([name, addresses]) => [
        name,
        { A: addresses.filter((a) => !a.includes(':')), AAAA: addresses.filter((a) => a.includes(':')) },
      ]),
    ),
  );
});
after(() => dns?.close());

for (const adapter of adapters) {
  describe(`contract: webhook destinations (${adapter.name})`, () => {
    const refusal = (url: string, allowed: string[] = []) =>
      adapter.open(new OutboundGuard(allowed)).refusalOf(new URL(url));

    it('lets public addresses and names that resolve to them through', async () => {
      expect(await refusal('https://93.184.215.14/')).to.equal(undefined);
      expect(await refusal('https://public.example.test/in')).to.equal(undefined);
      // A name with a public address among private ones: connections go to the public one.
      expect(await refusal('https://mixed.example.test/')).to.equal(undefined);
    });

    it('refuses internal addresses, as written or as a name resolves, saying which and why', async () => {
      expect(await refusal('https://127.0.0.1/')).to.include('loopback');
      expect(await refusal('https://[::1]/')).to.include('loopback');
      expect(await refusal('https://10.1.2.3/')).to.include('private');
      expect(await refusal('https://loopback.example.test/')).to.include('loopback.example.test (127.0.0.1): loopback');
      expect(await refusal('https://metadata.example.test/')).to.include('a cloud metadata service');
      expect(await refusal('https://v6.example.test/')).to.include('loopback');
    });

    it('refuses a name that does not resolve', async () => {
      expect(await refusal('https://nowhere.example.test/')).to.include('does not resolve');
    });

    it('lets through what the operator lists in outbound.allowedNetworks', async () => {
      expect(await refusal('https://loopback.example.test/', ['127.0.0.0/8'])).to.equal(undefined);
      expect(await refusal('https://127.0.0.1/', ['127.0.0.0/8'])).to.equal(undefined);
      // A metadata address only when listed alone.
      expect(await refusal('https://169.254.169.254/', ['169.254.0.0/16'])).to.include('metadata');
      expect(await refusal('https://169.254.169.254/', ['169.254.169.254/32'])).to.equal(undefined);
    });
  });
}
