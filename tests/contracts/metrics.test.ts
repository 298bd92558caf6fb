import { expect } from 'chai';
import { NO_METRICS, UNMATCHED_OPERATION } from '../../src/platform/pipeline/metrics.js';
import type { Metrics } from '../../src/platform/pipeline/ports.js';
import { PrometheusMetrics } from '../../src/platform/metrics/prometheus-metrics.js';

/** Every adapter of the metrics port, each opened fresh for one test. */
const metricsAdapters: { name: string; open: () => Promise<Metrics> }[] = [
  { name: 'record nothing (a library app’s default)', open: async () => NO_METRICS },
  {
    name: 'Prometheus (prom-client)',
    open: async () => new PrometheusMetrics({ tokenCache: () => ({ hits: 0, misses: 0 }), mailOutboxes: [] }),
  },
];

/** What the pipeline may rely on: it calls `observe` on every request's path and waits for nothing. */
for (const adapter of metricsAdapters) {
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
