import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import * as t from 'io-ts';
import pino from 'pino';
import { lookupFetch } from '../../src/platform/upstream/lookup-fetch.js';
import { cachingHostLookup, type ResolveHost } from '../../src/platform/upstream/host-lookup.js';
import { UpstreamClient } from '../../src/platform/upstream/upstream-client.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { GENEROUS_MS } from '../support/eventually.js';

const LOOPBACK: LookupAddress[] = [{ address: '127.0.0.1', family: 4 }];

function lookUp(lookup: LookupFunction, hostname: string, all = false): Promise<unknown> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all }, (error, address, family) =>
      error ? reject(error) : resolve(all ? address : { address, family }),
    );
  });
}

describe('adapter: resolving an upstream host once per TTL', () => {
  let time: number;
  let resolved: string[];
  let failNext: boolean;
  const resolve: ResolveHost = async (hostname) => {
    resolved.push(hostname);
    if (failNext) {
      failNext = false;
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return LOOPBACK;
  };

  beforeEach(() => {
    time = 0;
    resolved = [];
    failNext = false;
  });

  it('resolves a host once per TTL, sharing one resolution among concurrent connections', async () => {
    const lookup = cachingHostLookup({ ttlMs: 1_000, clock: { now: () => time }, resolve });
    const answers = await Promise.all([
      lookUp(lookup, 'things.test'),
      lookUp(lookup, 'things.test', true),
      lookUp(lookup, 'things.test'),
    ]);
    expect(answers).to.deep.equal([{ address: '127.0.0.1', family: 4 }, LOOPBACK, { address: '127.0.0.1', family: 4 }]);
    time = 999;
    await lookUp(lookup, 'things.test');
    expect(resolved).to.deep.equal(['things.test']);
    time = 1_000;
    await lookUp(lookup, 'things.test');
    await lookUp(lookup, 'other.test');
    expect(resolved).to.deep.equal(['things.test', 'things.test', 'other.test']);
  });

  it('keeps no failed resolution, and answers ENOTFOUND for a family the host lacks', async () => {
    const lookup = cachingHostLookup({ ttlMs: 1_000, clock: { now: () => time }, resolve });
    failNext = true;
    await lookUp(lookup, 'things.test').then(
      () => expect.fail('resolved'),
      (error: NodeJS.ErrnoException) => expect(error.code).to.equal('ENOTFOUND'),
    );
    expect(await lookUp(lookup, 'things.test')).to.deep.equal({ address: '127.0.0.1', family: 4 });
    expect(resolved).to.have.length(2);
    const ipv6Only = await new Promise<NodeJS.ErrnoException | null>((done) =>
      lookup('things.test', { family: 6 }, (error) => done(error)),
    );
    expect(ipv6Only?.code).to.equal('ENOTFOUND');
  });

  describe('through the upstream client', () => {
    let upstream: FixtureServer;
    beforeEach(async () => {
      upstream = await startFixtureServer({
        recordings: { '/a': { body: 1 }, '/b': { body: 2 }, '/c': { body: 3 }, '/d': { body: 4 } },
      });
    });
    afterEach(() => upstream.close());

    it('opens several connections to a host it resolved once', async () => {
      const lookup = cachingHostLookup({ ttlMs: 60_000, resolve });
      let connections = 0;
      const countingLookup: LookupFunction = (hostname, options, callback) => {
        connections += 1;
        lookup(hostname, options, callback);
      };
      const { port } = new URL(upstream.url);
      const client = new UpstreamClient(
        {
          name: 'things',
          baseUrl: `http://things.test:${port}`,
          // Not what is tested: generous, so that a loaded machine does not turn the four asks into failures.
          deadlineMs: GENEROUS_MS,
          maxEntries: 10,
          defaultBackoffMs: 1_000,
          failureTtlMs: 1_000,
          hostTtlMs: 60_000,
        },
        { logger: pino({ level: 'silent' }), fetch: lookupFetch(countingLookup).fetch },
      );
      // Slow answers keep each connection busy, so the four asks need four connections.
      upstream.behaviour = 'slow';
      upstream.slowMs = 100;
      const results = await Promise.all(
        ['/a', '/b', '/c', '/d'].map((path) => client.get(path, { ttlMs: 60_000, decoder: t.number })),
      );
      expect(results.map((result) => (result.kind === 'found' ? result.value : result))).to.deep.equal([1, 2, 3, 4]);
      expect(connections).to.equal(4);
      expect(resolved).to.deep.equal(['things.test']);
    });
  });
});
