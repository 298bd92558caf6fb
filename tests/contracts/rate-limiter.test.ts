import { expect } from 'chai';
import pino from 'pino';
import { memoryCounters, redisCounters } from '../../src/platform/rate-limit/counters.js';
import { TokenRateLimiter } from '../../src/platform/rate-limit/token-rate-limiter.js';
import { RedisConnection } from '../../src/platform/redis/redis-connection.js';
import { actorFor, OPERATOR, type Actor } from '../../src/domain/identity/actor.js';
import type { RateLimiter, RateLimitStanding } from '../../src/platform/pipeline/ports.js';
import { ADMIT_EVERY_REQUEST } from '../../src/platform/pipeline/rate-limiter.js';
import { aToken, aUser } from '../support/mothers.js';
import { closedPort, openTestRedis, REDIS_URL } from '../support/redis.js';

const silent = pino({ level: 'silent' });
const DEFAULT = { requests: 5, perSeconds: 60 };

/** Every adapter of the rate-limiter port, each opened fresh for one test. */
const rateLimiterAdapters: { name: string; open: () => Promise<{ limiter: RateLimiter; close(): Promise<void> }> }[] = [
  {
    name: 'admit every request (a library app’s default)',
    open: async () => ({ limiter: ADMIT_EVERY_REQUEST, close: async () => {} }),
  },
  {
    name: 'per token, counters in memory',
    open: async () => ({ limiter: new TokenRateLimiter(memoryCounters, DEFAULT, silent), close: async () => {} }),
  },
  {
    name: 'per token, counters in a Redis that is down (the insurance limiter counts)',
    open: async () => {
      const connection = new RedisConnection(
        { url: `redis://127.0.0.1:${await closedPort()}`, commandTimeoutMs: 250 },
        silent,
      );
      await connection.start();
      return {
        limiter: new TokenRateLimiter(redisCounters(connection.client, 'down:'), DEFAULT, silent),
        close: () => connection.stop(),
      };
    },
  },
];
if (REDIS_URL) {
  rateLimiterAdapters.push({
    name: 'per token, counters in Redis',
    open: async () => {
      const redis = await openTestRedis();
      return {
        limiter: new TokenRateLimiter(redisCounters(redis.client, redis.keyPrefix), DEFAULT, silent),
        close: () => redis.close(),
      };
    },
  });
}

const OPERATIONS = ['GET /api/crypto/enc', 'POST /api/token/create', 'GET /api/game/:game/maps'];
const ADDRESSES = ['127.0.0.1', '::1', 'unknown'];
const aPrincipal = (rateLimit: { requests: number; perSeconds: number } | null = null): Actor => {
  const user = aUser();
  return actorFor({ token: aToken(user.id, { rateLimit }), user, issuer: null });
};

/** What the pipeline may rely on in a verdict, whatever the adapter counts. */
function expectSane(verdict: RateLimitStanding | undefined): void {
  if (verdict === undefined) return;
  const { policy, remaining, resetSeconds, refusal } = verdict;
  expect(policy.name).to.match(/^[a-z]+$/);
  expect(remaining).to.satisfy((n: number) => Number.isInteger(n) && n >= 0 && n <= policy.requests);
  expect(resetSeconds).to.satisfy((n: number) => Number.isInteger(n) && n >= 0 && n <= policy.perSeconds);
  if (refusal !== undefined) {
    expect(refusal._tag).to.equal('RateLimited');
    expect(refusal.retryAfterSeconds).to.satisfy((seconds: number) => Number.isInteger(seconds) && seconds >= 1);
  }
}

for (const adapter of rateLimiterAdapters) {
  describe(`contract: RateLimiter (${adapter.name})`, () => {
    let limiter: RateLimiter;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ limiter, close } = await adapter.open());
    });
    afterEach(async () => close());

    it('admits the first request of any operation, actor and address', async () => {
      for (const operation of OPERATIONS) {
        for (const address of ADDRESSES) {
          for (const actor of [OPERATOR, aPrincipal(), aPrincipal({ requests: 1, perSeconds: 1 })]) {
            const verdict = await limiter.admit(operation, actor, address);
            expectSane(verdict);
            expect(verdict?.refusal).to.equal(undefined);
          }
        }
      }
    });

    it('answers every request, many in a row, with where the caller stands or a 429 saying in whole seconds (at least 1) when to come back, and never rejects', async () => {
      const actor = aPrincipal();
      for (let i = 0; i < 200; i++) expectSane(await limiter.admit(OPERATIONS[0]!, actor, '127.0.0.1'));
    });
  });
}
