import { expect } from 'chai';
import { PrometheusMetrics } from '../../src/platform/metrics/prometheus-metrics.js';

describe('adapter: PrometheusMetrics', () => {
  it('reads each mail outbox’s depth by status at every scrape, summed over outboxes, and has no such gauge without one', async () => {
    let queued = 3;
    const metrics = new PrometheusMetrics({
      tokenCache: () => ({ hits: 7, misses: 2 }),
      mailOutboxes: [{ byStatus: async () => ({ queued, failed: 1 }) }, { byStatus: async () => ({ queued: 1 }) }],
    });
    expect(await metrics.exposition())
      .to.include('mail_outbox_messages{status="queued"} 4\n')
      .and.include('mail_outbox_messages{status="failed"} 1\n');
    queued = 0;
    expect(await metrics.exposition()).to.include('mail_outbox_messages{status="queued"} 1\n');
    expect(await metrics.exposition())
      .to.include('token_cache_lookups_total{result="hit"} 7\n')
      .and.include('token_cache_lookups_total{result="miss"} 2\n');

    const without = new PrometheusMetrics({ tokenCache: () => ({ hits: 0, misses: 0 }), mailOutboxes: [] });
    expect(await without.exposition()).not.to.include('mail_outbox_messages');
  });

  it('counts request durations into cumulative buckets by method, route and status', async () => {
    const metrics = new PrometheusMetrics({ tokenCache: () => ({ hits: 0, misses: 0 }), mailOutboxes: [] });
    for (const milliseconds of [1.5, 20, 20]) metrics.observe('GET /api/crypto/enc', 200, milliseconds);
    metrics.observe('GET /api/crypto/enc', 429, 0.2);
    const exposition = await metrics.exposition();
    const series = 'method="GET",route="/api/crypto/enc",status="200"';
    expect(exposition)
      .to.include('# TYPE http_request_duration_seconds histogram\n')
      .and.include(`http_request_duration_seconds_bucket{le="0.001",${series}} 0\n`)
      .and.include(`http_request_duration_seconds_bucket{le="0.0025",${series}} 1\n`)
      .and.include(`http_request_duration_seconds_bucket{le="0.01",${series}} 1\n`)
      .and.include(`http_request_duration_seconds_bucket{le="0.025",${series}} 3\n`)
      .and.include(`http_request_duration_seconds_bucket{le="+Inf",${series}} 3\n`)
      .and.include(`http_request_duration_seconds_sum{${series}} 0.0415\n`)
      .and.include(`http_request_duration_seconds_count{${series}} 3\n`)
      .and.include(
        'http_request_duration_seconds_bucket{le="0.0005",method="GET",route="/api/crypto/enc",status="429"} 1\n',
      )
      .and.include('rate_limit_rejections_total{route="/api/crypto/enc"} 1\n');
  });

  it('keeps apart what two applications in one process record, and shows the process’s own metrics in both', async () => {
    const first = new PrometheusMetrics({ tokenCache: () => ({ hits: 0, misses: 0 }), mailOutboxes: [] });
    const second = new PrometheusMetrics({ tokenCache: () => ({ hits: 0, misses: 0 }), mailOutboxes: [] });
    first.observe('GET /api/crypto/enc', 200, 1.5);
    first.countUpstreamCall('hive', 'timeout');
    expect(await first.exposition())
      .to.include('http_request_duration_seconds_count{method="GET",route="/api/crypto/enc",status="200"} 1\n')
      .and.include('upstream_calls_total{upstream="hive",outcome="timeout"} 1\n');
    expect(await second.exposition()).not.to.include('route="/api/crypto/enc"');
    for (const exposition of [await first.exposition(), await second.exposition()])
      expect(exposition).to.include('process_cpu_user_seconds_total');
  });
});
