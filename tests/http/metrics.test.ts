import { expect } from 'chai';
import { startContentFixture, contentUpstreamsAt, type ContentFixture } from '../support/content-fixture.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';
import { parseExposition, valueOf, type Sample } from '../support/prometheus-text.js';

describe('http: GET /metrics', () => {
  let upstreams: ContentFixture;
  let server: TestServer;
  let scraper: string;
  const scrape = async (): Promise<Sample[]> => {
    const response = await server.get('/metrics', { Authorization: `Bearer ${scraper}` });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    return parseExposition(await response.text());
  };

  before(async () => {
    upstreams = await startContentFixture();
    server = await startServer({ env: { ...contentUpstreamsAt(upstreams), UTILITY_API_RATE_LIMIT: '2/60' } });
    // The scraper has a limit of its own, far from the one the test spends.
    scraper = await server.tokenFor(['System::Metrics'], { rateLimit: { requests: 1000, perSeconds: 60 } });
  });
  after(async () => {
    await server.close();
    await upstreams.close();
  });

  it('answers only a token holding System::Metrics', async () => {
    await expectError(await server.get('/metrics'), 401, 3);
    await expectError(
      await server.get('/metrics', { Authorization: `Bearer ${await server.tokenFor(['Cryptography::*'])}` }),
      403,
      1,
    );
    await expectError(await server.get('/api/metrics', { Authorization: `Bearer ${scraper}` }), 404, 22);
  });

  it('times requests by method, route pattern and status, never by the raw path, and counts rate-limit rejections', async () => {
    const token = await server.tokenFor(['Cryptography::Encrypt']);
    const auth = { Authorization: `Bearer ${token}` };
    expect((await server.get('/api/crypto/enc?data=secret-data', auth)).status).to.equal(200);
    await expectError(await server.get('/api/crypto/enc', auth), 400, 6);
    // Refused before the rate limit stage, as are unknown paths: neither is counted against the token.
    await expectError(await server.get('/api/barcode/gen/qrcode-in-the-path?content=x', auth), 403, 1);
    await expectError(await server.get('/api/no/such/page-in-the-path', auth), 404, 22);
    await expectError(await server.get('/api/crypto/enc?data=x', auth), 429, 25);

    const samples = await scrape();
    expect(
      valueOf(samples, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/crypto/enc',
        status: '200',
      }),
    ).to.equal(1);
    expect(
      valueOf(samples, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/barcode/gen/:codec',
        status: '403',
      }),
    ).to.equal(1);
    expect(
      valueOf(samples, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' }),
    ).to.be.at.least(1);
    expect(
      valueOf(samples, 'http_request_duration_seconds_bucket', { route: '/api/crypto/enc', status: '200', le: '+Inf' }),
    ).to.equal(1);
    expect(
      valueOf(samples, 'http_request_duration_seconds_sum', { route: '/api/crypto/enc', status: '200' }),
    ).to.be.above(0);
    expect(valueOf(samples, 'rate_limit_rejections_total', { route: '/api/crypto/enc' })).to.equal(1);
    const labelValues = samples.flatMap((sample) => Object.values(sample.labels)).join(' ');
    for (const raw of ['qrcode-in-the-path', 'page-in-the-path', 'secret-data'])
      expect(labelValues).not.to.include(raw);
  });

  it('counts token cache hits and misses, calls to upstreams by outcome, and the process', async () => {
    const token = await server.tokenFor(['Facts::ChuckNorris']);
    for (let i = 0; i < 2; i++)
      expect((await server.get('/api/facts/chucknorris', { Authorization: `Bearer ${token}` })).status).to.equal(200);
    const samples = await scrape();
    expect(valueOf(samples, 'token_cache_lookups_total', { result: 'miss' })).to.be.at.least(1);
    expect(valueOf(samples, 'token_cache_lookups_total', { result: 'hit' })).to.be.at.least(1);
    // The second call revalidates the first answer (If-None-Match), which the fixture confirms.
    expect(valueOf(samples, 'upstream_calls_total', { upstream: 'chucknorris', outcome: 'ok' })).to.equal(1);
    expect(valueOf(samples, 'upstream_calls_total', { upstream: 'chucknorris', outcome: 'not_modified' })).to.equal(1);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(
        samples.some((sample) => sample.name === name),
        name,
      ).to.equal(true);
    }
  });
});
