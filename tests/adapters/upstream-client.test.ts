import { expect } from 'chai';
import * as t from 'io-ts';
import pino from 'pino';
import { lookupFetch } from '../../src/platform/upstream/lookup-fetch.js';
import { keepingValid } from '../../src/platform/upstream/decoders.js';
import { cachingHostLookup } from '../../src/platform/upstream/host-lookup.js';
import { UpstreamClient } from '../../src/platform/upstream/upstream-client.js';
import type { UpstreamSettings } from '../../src/platform/upstream/upstream-call.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

const Thing = t.type({ name: t.string, size: t.number });
const MINUTE = 60_000;
/**
 * The deadline of the tests that are not about it: room for a loaded machine (in one CI run the
 * first call over the undici transport timed out at 300 ms), far below the mocha timeout.
 */
const ROOMY_DEADLINE_MS = 5_000;
/** The deadline of the tests that are about it: short, and well under the slow fixture's 2 s. */
const TESTED_DEADLINE_MS = 1_000;

/** The client behaves the same over Node's global fetch and over the one that caches host lookups. */
const transports = [
  { name: 'global fetch', fetch: globalThis.fetch, droppedConnection: 'unreachable: other side closed' },
  {
    name: 'undici fetch with a cached lookup',
    fetch: lookupFetch(cachingHostLookup({ ttlMs: MINUTE })).fetch,
    droppedConnection: 'unreachable: other side closed',
  },
];

for (const transport of transports) {
  describe(`adapter: the upstream client over ${transport.name} (against a loopback fixture)`, () => {
    let upstream: FixtureServer;
    let client: UpstreamClient;
    let time: number;
    let logLines: Record<string, unknown>[];
    const fetched: string[] = [];

    function open(settings: Partial<UpstreamSettings> = {}): UpstreamClient {
      const logger = pino(
        { level: 'info' },
        { write: (line: string) => logLines.push(JSON.parse(line) as Record<string, unknown>) },
      );
      const countingFetch: typeof fetch = (input, init) => {
        fetched.push(String(input));
        return transport.fetch(input, init);
      };
      return new UpstreamClient(
        {
          name: 'things',
          baseUrl: upstream.url,
          deadlineMs: ROOMY_DEADLINE_MS,
          maxEntries: 100,
          defaultBackoffMs: MINUTE,
          failureTtlMs: 5_000,
          hostTtlMs: MINUTE,
          ...settings,
        },
        { logger, fetch: countingFetch, clock: { now: () => time } },
      );
    }
    const thing = (path: string, requestId?: string) => client.get(path, { ttlMs: MINUTE, decoder: Thing, requestId });

    beforeEach(async () => {
      upstream = await startFixtureServer({
        recordings: {
          '/things/a': { body: { name: 'a', size: 1 } },
          '/things/b': { body: { name: 'b', size: 2 } },
          '/things/odd': { body: { name: 'odd', size: 'large' } },
          '/things/refused': { status: 400, body: { message: 'Bad Request' } },
          '/things/refused-why': {
            status: 400,
            body: { error: true, reason: 'Latitude must be in range of -90 to 90°' },
          },
          '/things/refused-garbled': { status: 400, body: '<html>Bad Request</html>' },
          '/lists/mixed': { body: [{ name: 'a', size: 1 }, { name: 'no size' }, { name: 'c', size: 3 }] },
          '/moved/a': { status: 301, body: '', headers: { location: '/things/a' } },
          '/moved/twice': { status: 302, body: '', headers: { location: '/moved/a' } },
          '/moved/loop': { status: 307, body: '', headers: { location: '/moved/loop' } },
          '/moved/nowhere': { status: 302, body: '' },
          '/moved/away': { status: 308, body: '', headers: { location: 'http://localhost:9/things/a' } },
        },
      });
      time = 1_000_000;
      logLines = [];
      fetched.length = 0;
      client = open();
    });
    afterEach(() => upstream.close());

    it('calls through the fetch it was given, and keeps an answer for its TTL', async () => {
      expect(await thing('/things/a')).to.deep.equal({
        kind: 'found',
        value: { name: 'a', size: 1 },
        freshness: 'fresh',
      });
      time += MINUTE - 1;
      expect(await thing('/things/a')).to.deep.equal({
        kind: 'found',
        value: { name: 'a', size: 1 },
        freshness: 'fresh',
      });
      expect(fetched).to.deep.equal([`${upstream.url}/things/a`]);
      expect(upstream.calls).to.deep.equal(['/things/a']);
    });

    it('takes a base URL written with a trailing slash as the same upstream', async () => {
      client = open({ baseUrl: `${upstream.url}/` });
      expect(await thing('/things/a')).to.deep.equal({
        kind: 'found',
        value: { name: 'a', size: 1 },
        freshness: 'fresh',
      });
      expect(fetched).to.deep.equal([`${upstream.url}/things/a`]);
    });

    it('revalidates an expired answer with If-None-Match, and a 304 keeps it fresh', async () => {
      await thing('/things/a');
      time += MINUTE;
      expect(await thing('/things/a')).to.deep.equal({
        kind: 'found',
        value: { name: 'a', size: 1 },
        freshness: 'fresh',
      });
      expect(upstream.calls).to.have.length(2);
      expect(upstream.notModified).to.equal(1);
    });

    it('keeps a 404 as not-found for the TTL too', async () => {
      expect(await thing('/things/nothing')).to.deep.equal({ kind: 'not-found' });
      expect(await thing('/things/nothing')).to.deep.equal({ kind: 'not-found' });
      expect(upstream.calls).to.have.length(1);
    });

    it('shares one call among concurrent identical asks', async () => {
      upstream.behaviour = 'slow';
      upstream.slowMs = 100;
      const results = await Promise.all(Array.from({ length: 20 }, () => thing('/things/b')));
      for (const result of results)
        expect(result).to.deep.equal({ kind: 'found', value: { name: 'b', size: 2 }, freshness: 'fresh' });
      expect(upstream.calls).to.deep.equal(['/things/b']);
    });

    it('tells each failure apart: unavailable, timeout, rejected', async () => {
      client = open({ deadlineMs: TESTED_DEADLINE_MS });
      expect(await thing('/things/refused')).to.deep.equal({ kind: 'rejected', status: 400 });
      expect(await thing('/things/odd')).to.deep.equal({ kind: 'unavailable' });
      upstream.behaviour = 'garbage';
      expect(await thing('/things/a')).to.deep.equal({ kind: 'unavailable' });
      upstream.behaviour = 'error';
      upstream.errorStatus = 503;
      expect(await thing('/things/b')).to.deep.equal({ kind: 'unavailable' });
      upstream.behaviour = 'down';
      expect(await thing('/things/c')).to.deep.equal({ kind: 'unavailable' });
      upstream.behaviour = 'slow';
      upstream.slowMs = 2_000;
      expect(await thing('/things/d')).to.deep.equal({ kind: 'timeout' });
      // The deadline covers the body too.
      upstream.behaviour = 'slow-body';
      expect(await thing('/things/e')).to.deep.equal({ kind: 'timeout' });
    });

    it('follows only the redirects a call allows, five at most; any other fails the call as unavailable, naming where it led', async () => {
      const sameHost = (to: URL, from: URL) => to.host === from.host;
      const moved = (path: string) => client.get(path, { ttlMs: MINUTE, decoder: Thing, followsRedirect: sameHost });
      expect(await moved('/moved/twice')).to.deep.equal({
        kind: 'found',
        value: { name: 'a', size: 1 },
        freshness: 'fresh',
      });
      expect(upstream.calls).to.deep.equal(['/moved/twice', '/moved/a', '/things/a']);
      for (const path of ['/moved/loop', '/moved/nowhere', '/moved/away'])
        expect(await moved(path), path).to.deep.equal({ kind: 'unavailable' });
      expect(upstream.calls.filter((path) => path === '/moved/loop')).to.have.length(6);
      expect(logLines.map((line) => line.reason)).to.deep.equal([
        'redirected more than 5 times',
        'answered 302 without an http(s) Location',
        'redirected to http://localhost:9, which is not followed',
      ]);
    });

    it('says why a question was refused where the call knows where its upstream says so', async () => {
      const rejectionReason = (body: unknown) =>
        typeof body === 'object' && body !== null && 'reason' in body && typeof body.reason === 'string'
          ? body.reason
          : undefined;
      const refused = (path: string) => client.get(path, { ttlMs: MINUTE, decoder: Thing, rejectionReason });
      expect(await refused('/things/refused-why')).to.deep.equal({
        kind: 'rejected',
        status: 400,
        reason: 'Latitude must be in range of -90 to 90°',
      });
      expect(await refused('/things/refused')).to.deep.equal({ kind: 'rejected', status: 400 });
      expect(await refused('/things/refused-garbled')).to.deep.equal({ kind: 'rejected', status: 400 });
      // The refusal is remembered like any failure: asked again at once, the upstream is not.
      expect(await refused('/things/refused-why')).to.deep.equal({
        kind: 'rejected',
        status: 400,
        reason: 'Latitude must be in range of -90 to 90°',
      });
      expect(upstream.calls).to.deep.equal(['/things/refused-why', '/things/refused', '/things/refused-garbled']);
    });

    it('logs each failure as one line naming the upstream, the reason and the request id, with no stack', async () => {
      client = open({ deadlineMs: TESTED_DEADLINE_MS });
      upstream.behaviour = 'error';
      await thing('/things/a', 'req-500');
      upstream.behaviour = 'garbage';
      await thing('/things/b', 'req-garbage');
      upstream.behaviour = 'normal';
      await thing('/things/odd', 'req-shape');
      await thing('/things/refused', 'req-400');
      upstream.behaviour = 'slow';
      upstream.slowMs = 2_000;
      await thing('/things/c', 'req-slow');
      upstream.behaviour = 'down';
      await thing('/things/d', 'req-down');
      const failures = logLines.map(({ level, upstream: name, reason, requestId, msg }) => ({
        level,
        upstream: name,
        reason,
        requestId,
        msg,
      }));
      expect(failures).to.deep.equal([
        { level: 40, upstream: 'things', reason: 'answered 500', requestId: 'req-500', msg: 'upstream call failed' },
        {
          level: 40,
          upstream: 'things',
          reason: 'answered something that is not JSON',
          requestId: 'req-garbage',
          msg: 'upstream call failed',
        },
        {
          level: 40,
          upstream: 'things',
          reason: 'answered JSON of the wrong shape',
          requestId: 'req-shape',
          msg: 'upstream call failed',
        },
        { level: 40, upstream: 'things', reason: 'answered 400', requestId: 'req-400', msg: 'upstream call failed' },
        {
          level: 40,
          upstream: 'things',
          reason: `no answer within ${TESTED_DEADLINE_MS} ms`,
          requestId: 'req-slow',
          msg: 'upstream call failed',
        },
        {
          level: 40,
          upstream: 'things',
          reason: failures[5]!.reason,
          requestId: 'req-down',
          msg: 'upstream call failed',
        },
      ]);
      expect(failures[5]!.reason).to.equal(transport.droppedConnection);
      for (const line of logLines)
        expect(Object.keys(line)).to.deep.equal([
          'level',
          'time',
          'pid',
          'hostname',
          'upstream',
          'reason',
          'requestId',
          'msg',
        ]);
    });

    it('remembers a failure with nothing cached for failureTtlMs: the second ask makes no call', async () => {
      client = open({ deadlineMs: TESTED_DEADLINE_MS });
      upstream.behaviour = 'slow';
      upstream.slowMs = 2_000;
      expect(await thing('/things/a')).to.deep.equal({ kind: 'timeout' });
      upstream.behaviour = 'normal';
      time += 4_999;
      expect(await thing('/things/a')).to.deep.equal({ kind: 'timeout' });
      expect(upstream.calls).to.deep.equal(['/things/a']);
      expect(logLines).to.have.length(1);
      time += 1;
      expect(await thing('/things/a')).to.deep.equal({
        kind: 'found',
        value: { name: 'a', size: 1 },
        freshness: 'fresh',
      });
      expect(upstream.calls).to.have.length(2);
    });

    it('remembers a failure for one path only', async () => {
      upstream.behaviour = 'error';
      await thing('/things/a');
      upstream.behaviour = 'normal';
      expect(await thing('/things/b')).to.deep.equal({
        kind: 'found',
        value: { name: 'b', size: 2 },
        freshness: 'fresh',
      });
    });

    it('with failureTtlMs 0, asks again at once', async () => {
      client = open({ failureTtlMs: 0 });
      upstream.behaviour = 'error';
      await thing('/things/a');
      await thing('/things/a');
      expect(upstream.calls).to.have.length(2);
    });

    it('serves an expired answer as stale when the upstream fails, and leaves it alone for the back-off', async () => {
      await thing('/things/a');
      time += MINUTE;
      upstream.behaviour = 'error';
      expect(await thing('/things/a')).to.deep.equal({
        kind: 'found',
        value: { name: 'a', size: 1 },
        freshness: 'stale',
      });
      time += MINUTE - 1;
      expect(await thing('/things/a')).to.deep.equal({
        kind: 'found',
        value: { name: 'a', size: 1 },
        freshness: 'stale',
      });
      expect(upstream.calls).to.have.length(2);
      upstream.behaviour = 'normal';
      time += 1;
      expect(await thing('/things/a')).to.deep.equal({
        kind: 'found',
        value: { name: 'a', size: 1 },
        freshness: 'fresh',
      });
      expect(upstream.calls).to.have.length(3);
    });

    it('backs off for Retry-After seconds after a 429, for every path, and never passes the 429 on', async () => {
      upstream.behaviour = 'rate-limit';
      upstream.retryAfter = 30;
      expect(await thing('/things/a')).to.deep.equal({ kind: 'unavailable' });
      upstream.behaviour = 'normal';
      expect(await thing('/things/b')).to.deep.equal({ kind: 'unavailable' });
      expect(upstream.calls).to.deep.equal(['/things/a']);
      expect(logLines.map((line) => line.reason)).to.deep.equal([
        'answered 429: backing off for 30000 ms',
        'backing off for 30000 ms after its 429',
      ]);
      time += 30_000;
      expect(await thing('/things/b')).to.deep.equal({
        kind: 'found',
        value: { name: 'b', size: 2 },
        freshness: 'fresh',
      });
    });

    it('keepingValid leaves out elements of the wrong shape and says which', async () => {
      const dropped: number[] = [];
      const result = await client.get('/lists/mixed', {
        ttlMs: MINUTE,
        decoder: keepingValid(Thing, (index) => dropped.push(index)),
      });
      expect(result).to.deep.equal({
        kind: 'found',
        value: [
          { name: 'a', size: 1 },
          { name: 'c', size: 3 },
        ],
        freshness: 'fresh',
      });
      expect(dropped).to.deep.equal([1]);
    });
  });
}
