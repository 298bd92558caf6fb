import { expect } from 'chai';
import { IpClientNetworks } from '../../src/families/users-and-tokens/adapters/ip-client-networks.js';

describe('adapter: client networks compared by address', () => {
  const networks = new IpClientNetworks();

  it('finds a network within a wider or equal one of its own family only', () => {
    expect(networks.within(['10.1.0.0/16'], ['10.0.0.0/8'])).to.equal(true);
    expect(networks.within(['10.0.0.0/8'], ['10.0.0.0/8'])).to.equal(true);
    expect(networks.within(['2001:db8:1::/48', '10.9.9.9/32'], ['2001:db8::/32', '10.0.0.0/8'])).to.equal(true);
    expect(networks.within(['10.0.0.0/8'], ['10.1.0.0/16'])).to.equal(false);
    expect(networks.within(['11.0.0.0/8'], ['10.0.0.0/8'])).to.equal(false);
    expect(networks.within(['::ffff:10.0.0.0/104'], ['10.0.0.0/8'])).to.equal(false);
    expect(networks.within(['10.1.0.0/16', '192.0.2.0/24'], ['10.0.0.0/8'])).to.equal(false);
  });
});
