import { expect } from 'chai';
import { NO_METRICS, UNMATCHED_OPERATION } from '../../src/platform/pipeline/metrics.js';
import type { Metrics } from '../../src/platform/pipeline/ports.js';
import { PrometheusMetrics } from '../../src/platform/metrics/prometheus-metrics.js';
import { parseExposition, typeOf, valueOf, type Sample } from '../support/prometheus-text.js';

/**
 * An adapter of the metrics port as a Prometheus server meets it: the port the pipeline tells of
 * each request, and the text exposition a scrape of `/metrics` reads (what the composition root
 * serves there; the port itself only takes observations).
 */
interface ScrapedMetrics {
  readonly metrics: Metrics;
  scrape(): Promise<string>;
}

/** Every adapter of the metrics port that serves a scrape, each opened fresh for one check. */
const scrapedAdapters: { name: string; open: () => Promise<ScrapedMetrics> }[] = [
  {
    name: 'Prometheus (prom-client)',
    open: async () => {
      const metrics = new PrometheusMetrics({ tokenCache: () => ({ hits: 0, misses: 0 }), mailOutboxes: [] });
      return { metrics, scrape: () => metrics.exposition() };
    },
  },
];

/** Every adapter of the port, those that serve no scrape too (a library app's default records nothing). */
const allAdapters: { name: string; open: () => Promise<Metrics> }[] = [
  { name: 'record nothing (a library app’s default)', open: async () => NO_METRICS },
  ...scrapedAdapters.map(({ name, open }) => ({ name, open: async () => (await open()).metrics })),
];

const DURATIONS = 'http_request_duration_seconds';
const ENC = { method: 'GET', route: '/api/crypto/enc' };

/** The samples of one series of the duration histogram: its buckets by bound, its sum and its count. */
function durationSeries(samples: readonly Sample[], labels: Record<string, string>) {
  const matches = (sample: Sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value);
  const buckets = samples
    .filter((sample) => sample.name === `${DURATIONS}_bucket` && matches(sample))
    .map((sample) => ({ le: sample.labels.le === '+Inf' ? Infinity : Number(sample.labels.le), count: sample.value }))
    .sort((a, b) => a.le - b.le);
  return {
    buckets,
    sum: valueOf(samples, `${DURATIONS}_sum`, labels),
    count: valueOf(samples, `${DURATIONS}_count`, labels),
  };
}

/** What a scrape must read of a series that saw exactly these durations (seconds). */
function expectHistogramOf(samples: readonly Sample[], labels: Record<string, string>, seconds: readonly number[]) {
  const what = JSON.stringify(labels);
  const { buckets, sum, count } = durationSeries(samples, labels);
  expect(count, `${what}: count`).to.equal(seconds.length);
  expect(sum, `${what}: sum`).to.be.closeTo(
    seconds.reduce((total, each) => total + each, 0),
    1e-9 * seconds.length,
  );
  expect(buckets.at(-1), `${what}: a +Inf bucket`).to.deep.equal({ le: Infinity, count: seconds.length });
  expect(buckets.length, `${what}: finite buckets`).to.be.at.least(2);
  for (const { le, count: inBucket } of buckets)
    expect(inBucket, `${what}: bucket le=${le}`).to.equal(seconds.filter((each) => each <= le).length);
}

/**
 * What a Prometheus server reads after the pipeline's observations. Each check is a function of
 * the adapter, so that the suite can be run against an adapter that records nothing and seen to
 * fail it (below).
 */
const scrapeChecks: { name: string; run: (adapter: ScrapedMetrics) => Promise<void> }[] = [
  {
    name: 'serves the text format a Prometheus server parses, with what it was told in the histogram of request durations',
    run: async ({ metrics, scrape }) => {
      metrics.observe('GET /api/crypto/enc', 200, 3);
      metrics.observe('GET /api/crypto/enc', 200, 3);
      const text = await scrape();
      expect(typeOf(text, DURATIONS)).to.equal('histogram');
      expect(valueOf(parseExposition(text), `${DURATIONS}_count`, { ...ENC, status: '200' })).to.equal(2);
    },
  },
  {
    name: 'reads each observation in the histogram of its method, route pattern and status, in seconds',
    run: async ({ metrics, scrape }) => {
      metrics.observe('GET /api/crypto/enc', 200, 12.5);
      metrics.observe('GET /api/crypto/enc', 200, 0.04);
      metrics.observe('GET /api/crypto/enc', 400, 2);
      metrics.observe('GET /api/game/:game/maps', 200, 250);
      const samples = parseExposition(await scrape());
      expectHistogramOf(samples, { ...ENC, status: '200' }, [0.0125, 0.00004]);
      expectHistogramOf(samples, { ...ENC, status: '400' }, [0.002]);
      expectHistogramOf(samples, { method: 'GET', route: '/api/game/:game/maps', status: '200' }, [0.25]);
      expect(valueOf(samples, `${DURATIONS}_count`, { ...ENC, status: '500' })).to.equal(undefined);
    },
  },
  {
    name: 'reads what no route answered as one series, method and route both unmatched, whatever its duration',
    run: async ({ metrics, scrape }) => {
      metrics.observe(UNMATCHED_OPERATION, 404, 1);
      metrics.observe(UNMATCHED_OPERATION, 404, 30_000);
      const samples = parseExposition(await scrape());
      expectHistogramOf(samples, { method: 'unmatched', route: 'unmatched', status: '404' }, [0.001, 30]);
      const routes = new Set(
        samples.filter((each) => each.name === `${DURATIONS}_count`).map((each) => each.labels.route),
      );
      expect([...routes]).to.deep.equal(['unmatched']);
    },
  },
  {
    name: 'reads the requests answered 429 as rate-limit rejections of their route pattern, and no others',
    run: async ({ metrics, scrape }) => {
      metrics.observe('GET /api/crypto/enc', 429, 0.2);
      metrics.observe('GET /api/crypto/enc', 429, 0.3);
      metrics.observe('POST /api/token/create', 429, 1);
      metrics.observe('GET /api/crypto/dec', 200, 1);
      const text = await scrape();
      const samples = parseExposition(text);
      expect(typeOf(text, 'rate_limit_rejections_total')).to.equal('counter');
      expect(valueOf(samples, 'rate_limit_rejections_total', { route: '/api/crypto/enc' })).to.equal(2);
      expect(valueOf(samples, 'rate_limit_rejections_total', { route: '/api/token/create' })).to.equal(1);
      expect(valueOf(samples, 'rate_limit_rejections_total', { route: '/api/crypto/dec' })).to.equal(undefined);
    },
  },
  {
    name: 'counts every one of many observations in a row, and keeps counting across scrapes',
    run: async ({ metrics, scrape }) => {
      const seconds: number[] = [];
      for (let i = 0; i < 10_000; i++) {
        metrics.observe('GET /api/crypto/enc', 200, i / 100);
        seconds.push(i / 100_000);
      }
      expectHistogramOf(parseExposition(await scrape()), { ...ENC, status: '200' }, seconds);
      metrics.observe('GET /api/crypto/enc', 200, 5);
      expectHistogramOf(parseExposition(await scrape()), { ...ENC, status: '200' }, [...seconds, 0.005]);
    },
  },
];

/** What the pipeline may rely on of any adapter: it calls `observe` on every request's path and waits for nothing. */
for (const adapter of allAdapters) {
  describe(`contract: Metrics (${adapter.name})`, () => {
    let metrics: Metrics;
    beforeEach(async () => {
      metrics = await adapter.open();
    });

    it('takes an observation of any operation, status and duration at once, returning nothing to wait for', () => {
      for (const operation of ['GET /api/crypto/enc', 'GET /api/game/:game/maps', UNMATCHED_OPERATION]) {
        for (const status of [200, 201, 308, 400, 401, 404, 429, 500, 504]) {
          for (const milliseconds of [0, 0.04, 12.5, 30_000])
            expect(metrics.observe(operation, status, milliseconds)).to.equal(undefined);
        }
      }
    });

    it('keeps taking observations, many in a row, without throwing', () => {
      expect(() => {
        for (let i = 0; i < 10_000; i++) metrics.observe('GET /api/crypto/enc', 200, i / 100);
      }).not.to.throw();
    });
  });
}

/** What a Prometheus server reads of an adapter that serves `/metrics`. */
for (const adapter of scrapedAdapters) {
  describe(`contract: Metrics, as a Prometheus scrape reads it (${adapter.name})`, () => {
    for (const check of scrapeChecks) it(check.name, async () => check.run(await adapter.open()));
  });
}

describe('contract: Metrics, as a Prometheus scrape reads it, fails an adapter that records nothing', () => {
  /** Adapters that take every observation and forget it, whatever text they serve. */
  const forgetful: { name: string; open: () => Promise<ScrapedMetrics> }[] = [
    { name: 'serves nothing', open: async () => ({ metrics: NO_METRICS, scrape: async () => '' }) },
    {
      name: 'serves the exposition of a fresh registry, never updated',
      open: async () => {
        const text = await new PrometheusMetrics({
          tokenCache: () => ({ hits: 0, misses: 0 }),
          mailOutboxes: [],
        }).exposition();
        return { metrics: NO_METRICS, scrape: async () => text };
      },
    },
    {
      name: 'serves what another instance saw, not what it is told',
      open: async () => {
        const other = new PrometheusMetrics({ tokenCache: () => ({ hits: 0, misses: 0 }), mailOutboxes: [] });
        other.observe('GET /api/crypto/enc', 200, 3);
        return { metrics: NO_METRICS, scrape: () => other.exposition() };
      },
    },
  ];

  for (const adapter of forgetful) {
    it(`fails every check that reads the scrape: ${adapter.name}`, async () => {
      const passed: string[] = [];
      for (const check of scrapeChecks) {
        const failed = await check.run(await adapter.open()).then(
          () => false,
          () => true,
        );
        if (!failed) passed.push(check.name);
      }
      expect(passed, 'checks the forgetful adapter passes').to.deep.equal([]);
    });
  }
});
