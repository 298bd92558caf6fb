import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/platform/http/app.js';
import { createHttpServer } from '../../src/platform/http/server.js';
import type { Actor } from '../../src/domain/identity/actor.js';
import { UNMATCHED_OPERATION } from '../../src/platform/pipeline/metrics.js';
import type { Metrics, RateLimiter, RateLimitStanding } from '../../src/platform/pipeline/ports.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

/** A limiter that admits each token a given number of requests per operation, and remembers whom it was asked about. */
class CountingLimiter implements RateLimiter {
  readonly asked: { operation: string; actor: Actor['kind']; clientAddress: string }[] = [];
  private readonly counts = new Map<string, number>();
  constructor(private readonly allowance: number) {}

  admit(operation: string, actor: Actor, clientAddress: string): Promise<RateLimitStanding> {
    this.asked.push({ operation, actor: actor.kind, clientAddress });
    const key = `${operation} ${actor.kind === 'principal' ? actor.principal.token.id : actor.kind}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    const policy = { name: 'counting', requests: this.allowance, perSeconds: 60 };
    const remaining = Math.max(this.allowance - count, 0);
    // A promise, as a limiter with a shared store answers: the pipeline must wait for it.
    return Promise.resolve(
      count > this.allowance
        ? { policy, remaining, resetSeconds: 7, refusal: { _tag: 'RateLimited', retryAfterSeconds: 7 } }
        : { policy, remaining, resetSeconds: 7 },
    );
  }
}

class RecordingMetrics implements Metrics {
  readonly observed: { operation: string; status: number; milliseconds: number }[] = [];
  observe(operation: string, status: number, milliseconds: number): void {
    this.observed.push({ operation, status, milliseconds });
  }
}

/**
 * The real app, routes and use cases of a started server, composed again with a limiter and a
 * metrics sink plugged in, as a deployment would: the routes are untouched.
 */
async function pluggedIn(
  server: TestServer,
  rateLimiter: RateLimiter,
  metrics: Metrics,
): Promise<{ url: string; close(): Promise<void> }> {
  const { routes, useCases, logger, config } = server.app;
  const app = createApp({
    table: routes,
    authenticate: useCases.usersAndTokens.authenticate,
    logIn: useCases.usersAndTokens.logInWithPassword,
    logger,
    accessLog: () => {},
    maxBodyBytes: config.http.maxBodyBytes,
    rateLimiter,
    metrics,
  });
  const { server: http } = createHttpServer(app, { ...config.http, ...config.shutdown });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

describe('http: the request pipeline takes a rate limiter and a metrics sink without touching a route', () => {
  let server: TestServer;
  let limiter: CountingLimiter;
  let metrics: RecordingMetrics;
  let plugged: { url: string; close(): Promise<void> };
  beforeEach(async () => {
    server = await startServer();
    limiter = new CountingLimiter(2);
    metrics = new RecordingMetrics();
    plugged = await pluggedIn(server, limiter, metrics);
  });
  afterEach(async () => {
    await plugged.close();
    await server.close();
  });

  it('asks the limiter after authentication, once per request, with the route, the actor and the client address', async () => {
    await expectError(await fetch(`${plugged.url}/api/crypto/enc?data=x`), 401, 3);
    await expectError(
      await fetch(`${plugged.url}/api/crypto/enc?data=x`, { headers: { Authorization: 'Bearer nonsense' } }),
      401,
      4,
    );
    expect(limiter.asked).to.deep.equal([]);
    const token = await server.tokenFor(['*']);
    const admitted = await fetch(`${plugged.url}/api/crypto/enc?data=x`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(admitted.status).to.equal(200);
    expect(limiter.asked).to.deep.equal([
      { operation: 'GET /api/crypto/enc', actor: 'principal', clientAddress: '127.0.0.1' },
    ]);
    // Where the limiter says the caller stands, announced in the IETF RateLimit fields.
    expect(admitted.headers.get('ratelimit-policy')).to.equal('"counting";q=2;w=60');
    expect(admitted.headers.get('ratelimit')).to.equal('"counting";r=1;t=7');
  });

  it('answers a refused request 429/25 with Retry-After before decoding it, and the use case never runs', async () => {
    const admin = await server.userWithToken(['*']);
    const headers = { Authorization: `Bearer ${admin.secret}`, 'Content-Type': 'application/json' };
    const person = (n: number) =>
      JSON.stringify({
        firstname: 'Ada',
        lastname: 'Lovelace',
        email: `ada${n}@example.com`,
        password: 'correct horse battery',
      });
    expect(
      (await fetch(`${plugged.url}/api/user/create`, { method: 'POST', headers, body: person(1) })).status,
    ).to.equal(201);
    expect(
      (await fetch(`${plugged.url}/api/user/create`, { method: 'POST', headers, body: person(2) })).status,
    ).to.equal(201);
    const before = await server.snapshot();

    const refused = await fetch(`${plugged.url}/api/user/create`, { method: 'POST', headers, body: person(3) });
    const body = await expectError(refused, 429, 25);
    expect(refused.headers.get('retry-after')).to.equal('7');
    expect(refused.headers.get('ratelimit-policy')).to.equal('"counting";q=2;w=60');
    expect(refused.headers.get('ratelimit')).to.equal('"counting";r=0;t=7');
    expect(body.details).to.equal('Try again in 7 s');
    // A body that would fail decoding is refused for the rate first: nothing of it is read.
    await expectError(
      await fetch(`${plugged.url}/api/user/create`, { method: 'POST', headers, body: '{"firstname":' }),
      429,
      25,
    );
    expect(await server.snapshot()).to.deep.equal(before);
    // Another route is counted apart, as this limiter chooses.
    expect(
      (await fetch(`${plugged.url}/api/crypto/enc?data=x`, { headers: { Authorization: `Bearer ${admin.secret}` } }))
        .status,
    ).to.equal(200);
  });

  it('tells the metrics sink of every request once, by route pattern and status, after the answer is decided', async () => {
    const token = await server.tokenFor(['Cryptography::Encrypt']);
    const auth = { Authorization: `Bearer ${token}` };
    expect((await fetch(`${plugged.url}/api/crypto/enc?data=x`, { headers: auth })).status).to.equal(200);
    await expectError(await fetch(`${plugged.url}/api/crypto/enc`, { headers: auth }), 400, 6);
    await expectError(await fetch(`${plugged.url}/api/barcode/gen/qrcode?data=x`, { headers: auth }), 403, 1);
    await expectError(await fetch(`${plugged.url}/api/no/such/thing`, { headers: auth }), 404, 22);
    await expectError(await fetch(`${plugged.url}/api/crypto/enc`, { method: 'DELETE', headers: auth }), 405, 28);
    // The bad request counted too: the limiter is asked before decoding.
    await expectError(await fetch(`${plugged.url}/api/crypto/enc?data=x`, { headers: auth }), 429, 25);

    expect(metrics.observed.map(({ operation, status }) => [operation, status])).to.deep.equal([
      ['GET /api/crypto/enc', 200],
      ['GET /api/crypto/enc', 400],
      ['GET /api/barcode/gen/:codec', 403],
      [UNMATCHED_OPERATION, 404],
      [UNMATCHED_OPERATION, 405],
      ['GET /api/crypto/enc', 429],
    ]);
    for (const { milliseconds } of metrics.observed) expect(milliseconds).to.be.a('number').at.least(0);
  });
});
