import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import { connect, createServer, type LookupFunction, type Server } from 'node:net';
import fc from 'fast-check';
import { lookupFetch } from '../../src/platform/upstream/lookup-fetch.js';
import { OutboundGuard, RefusedDestination } from '../../src/platform/upstream/outbound-guard.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

const NOTHING_ALLOWED = new OutboundGuard([]);
const verdictOf = (address: string, guard = NOTHING_ALLOWED): string => guard.refusalOf(address)?.why ?? 'allowed';
const refused = (address: string, guard = NOTHING_ALLOWED): boolean => guard.refusalOf(address) !== undefined;

const v4Text = (n: number): string => [24, 16, 8, 0].map((shift) => (n >>> shift) & 0xff).join('.');
const v4Hex = (n: number): string => `${((n >>> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}`;
const v4In = (base: number, bits: number) =>
  fc.nat({ max: 2 ** (32 - bits) - 1 }).map((offset) => (base + offset) >>> 0);
const v4 = (text: string): number => text.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
/** The networks the guard must refuse whatever else it does: loopback, private, link-local, shared, multicast, "this" network. */
const MUST_REFUSE_V4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
];
const mustRefuseV4 = fc.constantFrom(...MUST_REFUSE_V4).chain(([base, bits]) => v4In(v4(base), bits));
const anyV4 = fc.nat({ max: 2 ** 32 - 1 });
/** Every way an IPv6 address can carry an IPv4 one to the same host or through a translator or relay. */
const EMBEDDINGS: readonly ((n: number) => string)[] = [
  (n) => `::ffff:${v4Text(n)}`,
  (n) => `::ffff:${v4Hex(n)}`,
  (n) => `0:0:0:0:0:ffff:${v4Hex(n)}`,
  (n) => `64:ff9b::${v4Text(n)}`,
  (n) => `64:ff9b::${v4Hex(n)}`,
  (n) => `2002:${v4Hex(n)}::1`,
  (n) => `::ffff:0:${v4Hex(n)}`,
];

describe('adapter: the outbound guard', () => {
  it('names why each kind of address is refused', () => {
    const expected: Record<string, string> = {
      '127.0.0.1': 'loopback',
      '127.255.255.254': 'loopback',
      '0.0.0.0': 'unspecified',
      '10.1.2.3': 'private',
      '172.31.255.255': 'private',
      '192.168.1.1': 'private',
      '169.254.1.1': 'link-local',
      '169.254.169.254': 'a cloud metadata service',
      '169.254.170.2': 'a cloud metadata service',
      '100.100.100.200': 'a cloud metadata service',
      '168.63.129.16': 'a cloud metadata service',
      '100.64.0.1': 'carrier-grade NAT (shared, not public)',
      '224.0.0.1': 'multicast',
      '239.255.255.250': 'multicast',
      '255.255.255.255': 'broadcast',
      '192.0.2.1': 'reserved',
      '240.0.0.1': 'reserved',
      '::1': 'loopback',
      '::': 'unspecified',
      'fe80::1': 'link-local',
      'fe80::1%eth0': 'link-local',
      'fc00::1': 'unique-local',
      'fd12:3456::1': 'unique-local',
      'fd00:ec2::254': 'a cloud metadata service',
      'ff02::1': 'multicast',
      'fec0::1': 'site-local',
      '::ffff:127.0.0.1': 'loopback',
      '::FFFF:7f00:1': 'loopback',
      '::ffff:10.0.0.1': 'private',
      '::ffff:169.254.169.254': 'a cloud metadata service',
      '64:ff9b::127.0.0.1': 'loopback (NAT64 of 127.0.0.1)',
      '64:ff9b::a9fe:a9fe': 'a cloud metadata service (NAT64 of 169.254.169.254)',
      '64:ff9b:1::1': 'special-purpose (rfc6052)',
      '2002:7f00:1::1': 'loopback (6to4 of 127.0.0.1)',
      '2002:c0a8:101::': 'private (6to4 of 192.168.1.1)',
      '::ffff:0:7f00:1': 'loopback (IPv4-translated of 127.0.0.1)',
      '::127.0.0.1': 'IPv4-compatible (deprecated)',
      '::7f00:1': 'IPv4-compatible (deprecated)',
      '::8.8.8.8': 'IPv4-compatible (deprecated)',
      '2001::1': 'a Teredo tunnel',
      '2001:db8::1': 'reserved',
      '100::1': 'special-purpose (discard)',
      '4000::1': 'outside global unicast (2000::/3)',
      localhost: 'not an IP address',
      '127.1': 'not an IP address',
      '2130706433': 'not an IP address',
    };
    const actual = Object.fromEntries(Object.keys(expected).map((address) => [address, verdictOf(address)]));
    expect(actual).to.deep.equal(expected);
  });

  it('allows public unicast addresses, and IPv6 forms that carry one', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.215.14',
      '2606:4700::1111',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect(verdictOf(address), address).to.equal('allowed');
    }
  });

  it('refuses every address of the networks it must, however an IPv6 address carries it (property)', () => {
    fc.assert(
      fc.property(mustRefuseV4, fc.constantFrom(...EMBEDDINGS), (n, embed) => refused(v4Text(n)) && refused(embed(n))),
      { numRuns: 2_000 },
    );
  });

  it('judges an IPv4 address and every IPv6 form carrying it alike (property)', () => {
    fc.assert(
      fc.property(anyV4, fc.constantFrom(...EMBEDDINGS), (n, embed) => refused(v4Text(n)) === refused(embed(n))),
      { numRuns: 5_000 },
    );
  });

  it('refuses every unique-local, link-local, multicast and IPv4-compatible IPv6 address (property)', () => {
    const prefixed = (prefix: number, bits: number) =>
      fc.array(fc.nat({ max: 0xffff }), { minLength: 8, maxLength: 8 }).map((parts) => {
        const mask = (0xffff << (16 - bits)) & 0xffff;
        parts[0] = (prefix & mask) | (parts[0]! & ~mask & 0xffff);
        return parts.map((part) => part.toString(16)).join(':');
      });
    const compatible = anyV4.filter((n) => n > 1).map((n) => `::${v4Hex(n)}`);
    fc.assert(
      fc.property(fc.oneof(prefixed(0xfc00, 7), prefixed(0xfe80, 10), prefixed(0xff00, 8), compatible), (address) =>
        refused(address),
      ),
      { numRuns: 2_000 },
    );
  });

  it('allows what a listed network holds, in its mapped form too, and nothing else (property)', () => {
    const guard = new OutboundGuard(['127.0.0.0/8', '10.20.0.0/16', 'fd00:1234::/32']);
    fc.assert(
      fc.property(
        v4In(v4('127.0.0.0'), 8),
        v4In(v4('10.20.0.0'), 16),
        fc.nat({ max: 0xffff }),
        (loopback, listed, part) => {
          return (
            !refused(v4Text(loopback), guard) &&
            !refused(`::ffff:${v4Text(loopback)}`, guard) &&
            !refused(v4Text(listed), guard) &&
            !refused(`fd00:1234::${part.toString(16)}`, guard) &&
            refused(v4Text((listed ^ 0x00010000) >>> 0), guard) &&
            refused(`fd00:1235::${part.toString(16)}`, guard)
          );
        },
      ),
    );
    expect(verdictOf('::1', guard)).to.equal('loopback');
  });

  it('opens a cloud metadata service only when the operator names it alone, not by a network holding it', () => {
    expect(verdictOf('169.254.169.254', new OutboundGuard(['169.254.0.0/16']))).to.equal('a cloud metadata service');
    expect(verdictOf('169.254.1.1', new OutboundGuard(['169.254.0.0/16']))).to.equal('allowed');
    expect(verdictOf('fd00:ec2::254', new OutboundGuard(['fd00::/8']))).to.equal('a cloud metadata service');
    expect(verdictOf('169.254.169.254', new OutboundGuard(['169.254.169.254/32']))).to.equal('allowed');
    expect(verdictOf('100.100.100.200', new OutboundGuard(['0.0.0.0/0']))).to.equal('a cloud metadata service');
  });

  describe('as the lookup of sockets', () => {
    const resolving =
      (answers: (hostname: string) => LookupAddress[]): LookupFunction =>
      (hostname, _options, callback) =>
        callback(null, answers(hostname));
    const lookUp = (lookup: LookupFunction, hostname: string, all: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        lookup(hostname, { all }, (error, address) => resolve({ error, address })),
      );

    it('gives only the addresses it allows, and fails naming the name when none is left (property)', async () => {
      const address = fc.constantFrom(
        '127.0.0.1',
        '10.0.0.1',
        '169.254.169.254',
        '::1',
        '::ffff:127.0.0.1',
        'fd00::1',
        '8.8.8.8',
        '1.1.1.1',
        '2606:4700::1111',
      );
      await fc.assert(
        fc.asyncProperty(fc.array(address, { minLength: 1, maxLength: 6 }), async (addresses) => {
          const answers = addresses.map((text) => ({ address: text, family: text.includes(':') ? 6 : 4 }));
          const lookup = NOTHING_ALLOWED.lookup(resolving(() => answers));
          const allowed = answers.filter(({ address: text }) => !refused(text));
          const every = await lookUp(lookup, 'mixed.test', true);
          const one = await lookUp(lookup, 'mixed.test', false);
          if (allowed.length === 0) {
            expect(every.error).to.be.instanceOf(RefusedDestination);
            expect(every.error?.message).to.match(/^refused to connect to mixed\.test \(/);
            expect(one.error).to.be.instanceOf(RefusedDestination);
          } else {
            expect(every).to.deep.equal({ error: null, address: allowed });
            expect(one).to.deep.equal({ error: null, address: allowed[0]!.address });
          }
        }),
        { numRuns: 200 },
      );
    });

    describe('of real connections (loopback fixtures on 127.0.0.2, allowed, and 127.0.0.1, not)', () => {
      const guard = new OutboundGuard(['127.0.0.2/32']);
      let allowedPeer: FixtureServer;
      let internal: Server;
      let internalConnections: number;
      let port: number;

      before(async () => {
        allowedPeer = await startFixtureServer({
          host: '127.0.0.2',
          recordings: { '/a': { body: { peer: 'allowed' } } },
        });
        port = Number(new URL(allowedPeer.url).port);
        internalConnections = 0;
        internal = createServer((socket) => {
          internalConnections += 1;
          socket.on('error', () => {});
          socket.end('HTTP/1.1 200 OK\r\ncontent-length: 17\r\n\r\n{"peer":"secret"}');
        });
        // The same port on another loopback address: only the address tells them apart.
        await new Promise<void>((resolve, reject) => internal.once('error', reject).listen(port, '127.0.0.1', resolve));
      });
      after(async () => {
        await allowedPeer.close();
        await new Promise<void>((resolve) => internal.close(() => resolve()));
      });

      it('connects a name that resolves to an allowed and a refused address to the allowed one alone', async () => {
        const { fetch } = lookupFetch(
          resolving(() => [
            { address: '127.0.0.1', family: 4 },
            { address: '127.0.0.2', family: 4 },
          ]),
          guard,
        );
        const response = await fetch(`http://mixed.test:${port}/a`);
        expect(await response.json()).to.deep.equal({ peer: 'allowed' });
        expect(internalConnections).to.equal(0);
      });

      it("checks each connection's own resolution: a name rebound to a refused address is refused", async () => {
        let resolutions = 0;
        const rebinding = resolving(() => [{ address: resolutions++ === 0 ? '127.0.0.2' : '127.0.0.1', family: 4 }]);
        expect(await (await lookupFetch(rebinding, guard).fetch(`http://rebind.test:${port}/a`)).json()).to.deep.equal({
          peer: 'allowed',
        });
        const second = await lookupFetch(rebinding, guard)
          .fetch(`http://rebind.test:${port}/a`)
          .then(
            () => undefined,
            (error: Error) => error.cause,
          );
        expect(second).to.be.instanceOf(RefusedDestination);
        expect(internalConnections).to.equal(0);
      });

      it('refuses an address given as it is before connecting, and a socket by the peer it reached', async () => {
        const literal = await lookupFetch(
          resolving(() => []),
          guard,
        )
          .fetch(`http://127.0.0.1:${port}/a`)
          .then(
            () => undefined,
            (error: Error) => error.cause,
          );
        expect((literal as RefusedDestination).message).to.equal(
          'refused to connect to 127.0.0.1: loopback, which outbound.allowedNetworks does not list',
        );
        expect(internalConnections).to.equal(0);
        const socket = connect({ host: '127.0.0.1', port });
        await new Promise((resolve) => socket.once('connect', resolve));
        expect(guard.refusalOfPeer(socket)?.why).to.equal('loopback');
        expect(new OutboundGuard(['127.0.0.0/8']).refusalOfPeer(socket)).to.equal(undefined);
        socket.destroy();
      });
    });
  });
});
