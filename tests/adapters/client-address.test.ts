import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import { ClientAddresses, throttledClientOf } from '../../src/platform/http/client-address.js';

/** A request as the reading sees it: the connection's peer and the header as Node gives it. */
const from = (peer: string | undefined, forwardedFor?: string | string[]): IncomingMessage =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe('adapter: ClientAddresses, who sent a request', () => {
  const proxies = new ClientAddresses(['10.0.0.0/8', 'fd00::/8', '192.0.2.7/32']);

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(new ClientAddresses([]).of(from('203.0.113.5', '198.51.100.1'))).to.equal('203.0.113.5');
  });

  it('ignores the header from a peer that is not a trusted proxy', () => {
    expect(proxies.of(from('203.0.113.5', '198.51.100.1'))).to.equal('203.0.113.5');
    expect(proxies.of(from('192.0.2.8', '198.51.100.1'))).to.equal('192.0.2.8');
  });

  it('takes the first address from the right that is not a trusted proxy, never what the client wrote left of it', () => {
    expect(proxies.of(from('10.1.1.1', '198.51.100.1'))).to.equal('198.51.100.1');
    expect(proxies.of(from('10.1.1.1', '6.6.6.6, 198.51.100.1, 10.2.2.2, fd00::1'))).to.equal('198.51.100.1');
    expect(proxies.of(from('10.1.1.1', ['6.6.6.6, 198.51.100.1', '10.2.2.2']))).to.equal('198.51.100.1');
    expect(proxies.of(from('::ffff:10.1.1.1', '2001:db8::9'))).to.equal('2001:db8::9');
    expect(proxies.of(from('fd00::2', '::ffff:198.51.100.4'))).to.equal('198.51.100.4');
  });

  it('is the last trusted hop when a trusted proxy wrote no address, or when every hop is trusted', () => {
    expect(proxies.of(from('10.1.1.1'))).to.equal('10.1.1.1');
    expect(proxies.of(from('10.1.1.1', 'unknown, 10.2.2.2'))).to.equal('10.2.2.2');
    expect(proxies.of(from('10.1.1.1', '10.3.3.3, 10.2.2.2'))).to.equal('10.3.3.3');
    expect(proxies.of(from(undefined))).to.equal('unknown');
  });

  it('counts an IPv6 client by its /64 for the login throttle, an IPv4 one (mapped or not) by its address', () => {
    expect(throttledClientOf('2001:db8:1:2:aaaa::1')).to.equal('2001:db8:1:2::/64');
    expect(throttledClientOf('2001:db8:1:2:ffff:ffff:ffff:ffff')).to.equal('2001:db8:1:2::/64');
    expect(throttledClientOf('2001:db8:1:3::1')).to.equal('2001:db8:1:3::/64');
    expect(throttledClientOf('::ffff:198.51.100.4')).to.equal('198.51.100.4');
    expect(throttledClientOf('198.51.100.4')).to.equal('198.51.100.4');
    expect(throttledClientOf('unknown')).to.equal('unknown');
  });
});
