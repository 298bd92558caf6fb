import { expect } from 'chai';
import { MemoryPublicSuffixes } from '../../src/families/whois/adapters/tldts/memory-public-suffixes.js';
import { TldtsPublicSuffixes } from '../../src/families/whois/adapters/tldts/tldts-public-suffixes.js';
import type { PublicSuffixes } from '../../src/families/whois/domain/ports.js';

const adapters: { name: string; suffixes: PublicSuffixes }[] = [
  { name: 'memory', suffixes: new MemoryPublicSuffixes(new Set(['co.uk'])) },
  { name: 'tldts', suffixes: new TldtsPublicSuffixes() },
];

for (const { name, suffixes } of adapters) {
  describe(`contract: PublicSuffixes (${name})`, () => {
    it('finds the registrable domain below a public suffix of one or more labels', () => {
      expect(suffixes.registrableDomain('example.com')).to.equal('example.com');
      expect(suffixes.registrableDomain('a.b.example.com')).to.equal('example.com');
      expect(suffixes.registrableDomain('www.bbc.co.uk')).to.equal('bbc.co.uk');
      expect(suffixes.registrableDomain('_sip._tcp.example.com')).to.equal('example.com');
      expect(suffixes.registrableDomain('xn--bcher-kva.example')).to.equal('xn--bcher-kva.example');
    });

    it('has none for a public suffix itself', () => {
      expect(suffixes.registrableDomain('co.uk')).to.equal(null);
    });
  });
}
