import { expect } from 'chai';
import { IpClientNetworks } from '../../src/families/users-and-tokens/adapters/ip-client-networks.js';
import { LISTED_NETWORKS_ONLY, type ClientNetworks } from '../../src/families/users-and-tokens/domain/tokens/ports.js';

/**
 * What issuing and narrowing a token take from ClientNetworks: a network the list names is within
 * it, and a network is never called within a list it reaches beyond (a child token must not reach
 * further than its parent). The address arithmetic, and the fallback that only compares names
 * (it may refuse what lies within, never admit what does not). What only the arithmetic finds (a
 * narrower network inside a wider one) is tests/adapters/ip-client-networks.test.ts's.
 */
const adapters: { name: string; networks: ClientNetworks }[] = [
  { name: 'by address', networks: new IpClientNetworks() },
  { name: 'listed networks only', networks: LISTED_NETWORKS_ONLY },
];

for (const { name, networks } of adapters) {
  describe(`contract: ClientNetworks (${name})`, () => {
    it('finds every network a list names within it, and no networks at all within any list', () => {
      expect(networks.within(['10.0.0.0/8'], ['10.0.0.0/8', '::1/128'])).to.equal(true);
      expect(networks.within(['::1/128', '10.0.0.0/8'], ['10.0.0.0/8', '::1/128'])).to.equal(true);
      expect(networks.within([], ['10.0.0.0/8'])).to.equal(true);
      expect(networks.within([], [])).to.equal(true);
    });

    it('never finds a network within a list it reaches beyond', () => {
      expect(networks.within(['10.0.0.0/8'], ['10.1.0.0/16'])).to.equal(false);
      expect(networks.within(['11.0.0.0/8'], ['10.0.0.0/8'])).to.equal(false);
      expect(networks.within(['0.0.0.0/0'], ['10.0.0.0/8', '192.0.2.0/24'])).to.equal(false);
      expect(networks.within(['::ffff:10.0.0.0/104'], ['10.0.0.0/8'])).to.equal(false);
      expect(networks.within(['10.0.0.0/8', '192.0.2.0/24'], ['10.0.0.0/8'])).to.equal(false);
      expect(networks.within(['10.0.0.0/8'], [])).to.equal(false);
    });
  });
}

describe('ClientNetworks: the fallback that only compares names', () => {
  it('refuses a narrower network than any a list names, which the arithmetic finds within it', () => {
    expect(LISTED_NETWORKS_ONLY.within(['10.1.0.0/16'], ['10.0.0.0/8'])).to.equal(false);
    expect(new IpClientNetworks().within(['10.1.0.0/16'], ['10.0.0.0/8'])).to.equal(true);
  });
});
