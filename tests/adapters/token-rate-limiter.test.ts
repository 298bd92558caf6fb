import { expect } from 'chai';
import pino from 'pino';
import { memoryCounters, redisCounters, type Counters } from '../../src/platform/rate-limit/counters.js';
import { MemoryRequestWindow } from '../../src/platform/rate-limit/request-counter.js';
import { TokenRateLimiter } from '../../src/platform/rate-limit/token-rate-limiter.js';
import { Quotas } from '../../src/platform/rate-limit/quotas.js';
import { RedisConnection } from '../../src/platform/redis/redis-connection.js';
import { actorFor, OPERATOR, type Actor } from '../../src/domain/identity/actor.js';
import type { RateLimiter, RateLimitStanding } from '../../src/platform/pipeline/ports.js';
import type { RateLimit } from '../../src/domain/identity/rate-limit.js';
import { GENEROUS_MS, settlesWithin } from '../support/eventually.js';
import { aToken, aUser } from '../support/mothers.js';
import { ManualClock } from '../support/manual-clock.js';
import {
  closedPort,
  deleteKeys,
  HAS_REDIS_SERVER,
  openTestRedis,
  REDIS_URL,
  testKeyPrefix,
  ThrowawayRedis,
} from '../support/redis.js';

const silent = pino({ level: 'silent' });
const OPERATION = 'GET /api/crypto/enc';

const principal = (rateLimit: RateLimit | null = null): Actor => {
  const user = aUser();
  return actorFor({ token: aToken(user.id, { rateLimit }), user, issuer: null });
};

/** How many of `count` requests, spread over the limiters in turn, were admitted. */
async function admittedOf(limiters: readonly RateLimiter[], actor: Actor, count: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < count; i++) {
    const verdict = await limiters[i % limiters.length]!.admit(OPERATION, actor, '127.0.0.1');
    if (verdict !== undefined && verdict.refusal === undefined) admitted += 1;
  }
  return admitted;
}

describe('adapter: TokenRateLimiter', () => {
  it('counts each token across operations under the default policy, then refuses until the window ends', async () => {
    const limiter = new TokenRateLimiter(memoryCounters, { requests: 3, perSeconds: 60 }, silent);
    const actor = principal();
    const verdicts = [];
    for (const operation of [
      'GET /api/crypto/enc',
      'GET /api/crypto/dec',
      'POST /api/token/create',
      'GET /api/crypto/enc',
    ])
      verdicts.push(await limiter.admit(operation, actor, '127.0.0.1'));
    expect(verdicts.map((verdict) => [verdict?.policy, verdict?.remaining])).to.deep.equal([
      [{ name: 'default', requests: 3, perSeconds: 60 }, 2],
      [{ name: 'default', requests: 3, perSeconds: 60 }, 1],
      [{ name: 'default', requests: 3, perSeconds: 60 }, 0],
      [{ name: 'default', requests: 3, perSeconds: 60 }, 0],
    ]);
    expect(verdicts.slice(0, 3).every((verdict) => verdict?.refusal === undefined)).to.equal(true);
    const refused = verdicts[3]!;
    expect(refused.refusal?.retryAfterSeconds).to.be.within(59, 60);
    expect(refused.resetSeconds).to.equal(refused.refusal?.retryAfterSeconds);
    // Another user has a count of its own.
    expect((await limiter.admit(OPERATION, principal(), '127.0.0.1'))?.remaining).to.equal(2);
  });

  it('counts a user’s tokens without a limit of their own, and the user’s password, in one count: minting tokens buys no requests', async () => {
    const limiter = new TokenRateLimiter(memoryCounters, { requests: 10, perSeconds: 60 }, silent);
    const user = aUser();
    const tokens = Array.from({ length: 5 }, () => actorFor({ token: aToken(user.id), user, issuer: null }));
    let admitted = 0;
    for (let i = 0; i < 20; i++)
      if ((await limiter.admit(OPERATION, tokens[i % tokens.length]!, '127.0.0.1'))?.refusal === undefined)
        admitted += 1;
    expect(admitted).to.equal(10);
    expect((await limiter.admit(OPERATION, { kind: 'password', user }, '127.0.0.1'))?.refusal?._tag).to.equal(
      'RateLimited',
    );
  });

  it('holds a token with a limit of its own within the default to both: its own count and its user’s', async () => {
    const limiter = new TokenRateLimiter(memoryCounters, { requests: 10, perSeconds: 60 }, silent);
    const user = aUser();
    const limited = Array.from({ length: 4 }, () =>
      actorFor({ token: aToken(user.id, { rateLimit: { requests: 5, perSeconds: 60 } }), user, issuer: null }),
    );
    const verdicts = [];
    for (let i = 0; i < 12; i++)
      verdicts.push(await limiter.admit(OPERATION, limited[i % limited.length]!, '127.0.0.1'));
    expect(verdicts.filter((verdict) => verdict?.refusal === undefined)).to.have.length(10);
    // What remains is the smaller of the two counts, under the policy that leaves less.
    expect(verdicts.map((verdict) => [verdict?.policy.name, verdict?.remaining]).slice(0, 3)).to.deep.equal([
      ['token', 4],
      ['token', 4],
      ['token', 4],
    ]);
    expect(verdicts[9]).to.deep.include({ remaining: 0 });
    expect(verdicts[9]!.policy.name).to.equal('default');
    expect(verdicts[10]!.refusal?._tag).to.equal('RateLimited');
  });

  it('counts a token given a limit above the default under that limit alone', async () => {
    const limiter = new TokenRateLimiter(memoryCounters, { requests: 2, perSeconds: 60 }, silent);
    const user = aUser();
    const generous = actorFor({
      token: aToken(user.id, { rateLimit: { requests: 5, perSeconds: 60 } }),
      user,
      issuer: null,
    });
    expect(await admittedOf([limiter], generous, 8)).to.equal(5);
    expect((await limiter.admit(OPERATION, { kind: 'password', user }, '127.0.0.1'))?.remaining).to.equal(1);
  });

  it("counts a token with a limit of its own under that limit, announced as the token's policy", async () => {
    const limiter = new TokenRateLimiter(memoryCounters, { requests: 1000, perSeconds: 10 }, silent);
    const actor = principal({ requests: 2, perSeconds: 5 });
    expect(await admittedOf([limiter], actor, 5)).to.equal(2);
    expect((await limiter.admit(OPERATION, actor, '127.0.0.1'))?.policy).to.deep.equal({
      name: 'token',
      requests: 2,
      perSeconds: 5,
    });
  });

  it('counts a user who asks with a password under the default policy, and never the operator', async () => {
    const limiter = new TokenRateLimiter(memoryCounters, { requests: 1, perSeconds: 60 }, silent);
    const user = aUser();
    expect((await limiter.admit('POST /api/token/create', { kind: 'password', user }, '::1'))?.refusal).to.equal(
      undefined,
    );
    expect((await limiter.admit('POST /api/token/create', { kind: 'password', user }, '::1'))?.refusal?._tag).to.equal(
      'RateLimited',
    );
    expect(await limiter.admit(OPERATION, OPERATOR, '::1')).to.equal(undefined);
  });

  it('with the default policy off, leaves tokens without a limit uncounted and still counts those with one', async () => {
    const limiter = new TokenRateLimiter(memoryCounters, null, silent);
    expect(await limiter.admit(OPERATION, principal(), '127.0.0.1')).to.equal(undefined);
    expect(await admittedOf([limiter], principal({ requests: 2, perSeconds: 60 }), 4)).to.equal(2);
  });

  it('in memory, answers without a promise and starts a key over when its own window ends', () => {
    let now = 1_000;
    const window = new MemoryRequestWindow(2, 10_000, () => now);
    expect([window.consume('a'), window.consume('a'), window.consume('a')]).to.deep.equal([
      { admitted: true, remaining: 1, msBeforeNext: 10_000 },
      { admitted: true, remaining: 0, msBeforeNext: 10_000 },
      { admitted: false, remaining: 0, msBeforeNext: 10_000 },
    ]);
    now += 4_000;
    // Another key's window starts at its own first request.
    expect(window.consume('b')).to.deep.equal({ admitted: true, remaining: 1, msBeforeNext: 10_000 });
    expect(window.consume('a')).to.deep.equal({ admitted: false, remaining: 0, msBeforeNext: 6_000 });
    now += 6_000;
    expect(window.consume('a')).to.deep.equal({ admitted: true, remaining: 1, msBeforeNext: 10_000 });
    expect(window.consume('b')).to.deep.equal({ admitted: true, remaining: 0, msBeforeNext: 4_000 });
    now += 30_000;
    expect(window.consume('b')).to.deep.equal({ admitted: true, remaining: 1, msBeforeNext: 10_000 });
  });

  it('in a Redis that is down, counts in memory at once: no request waits for it or fails', async () => {
    // A command deadline far beyond the test's own: a request that waited on Redis would not be answered in time.
    const connection = new RedisConnection(
      { url: `redis://127.0.0.1:${await closedPort()}`, commandTimeoutMs: 60_000 },
      silent,
    );
    await connection.start();
    try {
      const limiter = new TokenRateLimiter(
        redisCounters(connection.client, testKeyPrefix()),
        { requests: 3, perSeconds: 60 },
        silent,
      );
      expect(
        await settlesWithin(admittedOf([limiter], principal(), 5), 'requests counted while Redis is down', GENEROUS_MS),
      ).to.equal(3);
    } finally {
      await connection.stop();
    }
  });

  it('logs counters that cannot count at most once a minute by the clock it is given, not the wall clock', async () => {
    const logged: unknown[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const down: Counters = {
      ...memoryCounters,
      requestCounter: () => ({ count: () => Promise.reject(new Error('nothing can count')) }),
    };
    const clock = new ManualClock();
    const limiter = new TokenRateLimiter(down, { requests: 3, perSeconds: 60 }, logger, clock);
    const actor = principal();
    expect(await limiter.admit(OPERATION, actor)).to.equal(undefined);
    clock.advance(60_000);
    expect(await limiter.admit(OPERATION, actor)).to.equal(undefined);
    expect(logged, 'within the minute').to.have.length(1);
    clock.advance(1);
    expect(await limiter.admit(OPERATION, actor)).to.equal(undefined);
    expect(logged, 'a minute on, by the clock given').to.have.length(2);
    expect(logged[1]).to.include({ msg: 'rate limit counters unavailable: requests pass uncounted' });
  });

  (REDIS_URL ? describe : describe.skip)('on a shared Redis', () => {
    const keyPrefix = testKeyPrefix();
    const connections: RedisConnection[] = [];
    const instance = async (limit: RateLimit, url = REDIS_URL!, prefix = keyPrefix): Promise<TokenRateLimiter> => {
      const connection = new RedisConnection({ url, commandTimeoutMs: 250 }, silent);
      connections.push(connection);
      await connection.start();
      return new TokenRateLimiter(redisCounters(connection.client, prefix), limit, silent);
    };
    afterEach(async () => {
      await Promise.all(connections.splice(0).map((connection) => connection.stop()));
    });
    after(async () => deleteKeys(REDIS_URL!, keyPrefix));

    it('holds three instances to one limit together: their sum admits exactly the limit', async () => {
      const limit = { requests: 40, perSeconds: 60 };
      const instances = [await instance(limit), await instance(limit), await instance(limit)];
      expect(await admittedOf(instances, principal(), 90)).to.equal(40);
    });

    (HAS_REDIS_SERVER ? it : it.skip)(
      'counts per instance while Redis is gone, and together again once it is back',
      async () => {
        const redis = await ThrowawayRedis.start();
        try {
          const limit = { requests: 4, perSeconds: 60 };
          const prefix = testKeyPrefix();
          const instances = [await instance(limit, redis.url, prefix), await instance(limit, redis.url, prefix)];
          expect(await admittedOf(instances, principal(), 10)).to.equal(4);

          await redis.stop();
          // Each instance's insurance counts alone: twice the limit gets through, and nothing fails.
          expect(await admittedOf(instances, principal(), 10)).to.equal(8);

          await redis.start();
          await until(async () =>
            (await Promise.allSettled(connections.map((connection) => connection.probe()))).every(
              (probe) => probe.status === 'fulfilled',
            ),
          );
          expect(await admittedOf(instances, principal(), 10)).to.equal(4);
        } finally {
          await redis.stop();
        }
      },
    );
  });
});

async function until(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Two hours before a UTC midnight, in November (30 days). */
const EVENING = Date.UTC(2026, 10, 26, 22);

/** A standing as the RateLimit fields tell it: each policy's name, what is left, and the refusal's tag. */
const told = (standing: RateLimitStanding | undefined): unknown[] =>
  standing === undefined
    ? []
    : [standing.policy.name, standing.remaining, standing.refusal?._tag, ...told(standing.also)];

const quotaCounters: { name: string; open(): Promise<{ counters: Counters; close(): Promise<void> }> }[] = [
  { name: 'in memory', open: async () => ({ counters: memoryCounters, close: async () => {} }) },
  ...(REDIS_URL
    ? [
        {
          name: 'in Redis',
          async open() {
            const redis = await openTestRedis();
            return { counters: redisCounters(redis.client, redis.keyPrefix), close: () => redis.close() };
          },
        },
      ]
    : []),
];

for (const { name, open } of quotaCounters) {
  describe(`adapter: TokenRateLimiter with quotas, counted ${name}`, () => {
    let counters: Counters;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ counters, close } = await open());
    });
    afterEach(async () => close());

    it("tells of each quota's 80 % and 100 % once, on the request that passes it, for the token's and the user's quota alike", async () => {
      const passed: string[] = [];
      const limiter = new TokenRateLimiter(
        counters,
        null,
        silent,
        new ManualClock(EVENING),
        new Quotas(new ManualClock(EVENING)),
        (thresholds) => passed.push(...thresholds.map(({ scope, percent, used }) => `${scope} ${percent} at ${used}`)),
      );
      const user = aUser({ quota: { requests: 10, per: 'month' } });
      const actor = actorFor({ token: aToken(user.id, { quota: { requests: 5, per: 'day' } }), user, issuer: null });
      const seen: string[][] = [];
      for (let n = 0; n < 7; n += 1) {
        await limiter.admit(OPERATION, actor, '127.0.0.1');
        seen.push(passed.splice(0));
      }
      expect(seen).to.deep.equal([[], [], [], ['token 80 at 4'], ['token 100 at 5'], [], []]);
      // The user's quota counts the other token's requests too: 8 of 10 is its 80 %.
      const other = actorFor({ token: aToken(user.id), user, issuer: null });
      for (let n = 0; n < 3; n += 1) await limiter.admit(OPERATION, other, '127.0.0.1');
      expect(passed).to.deep.equal(['user 80 at 8']);
    });

    it('announces the tighter quota beside the rate limit, spends no quota on what a window refuses, and counts in the windows what a quota refuses', async () => {
      const limiter = new TokenRateLimiter(
        counters,
        { requests: 5, perSeconds: 60 },
        silent,
        new ManualClock(EVENING),
        new Quotas(new ManualClock(EVENING)),
      );
      const user = aUser({ quota: { requests: 10, per: 'month' } });
      const own = actorFor({
        token: aToken(user.id, { rateLimit: { requests: 2, perSeconds: 60 }, quota: { requests: 3, per: 'day' } }),
        user,
        issuer: null,
      });
      const other = actorFor({ token: aToken(user.id, { quota: { requests: 1, per: 'day' } }), user, issuer: null });
      const verdicts: unknown[][] = [];
      for (const actor of [own, own, own, other, other, other])
        verdicts.push(told(await limiter.admit(OPERATION, actor, '127.0.0.1')));
      expect(verdicts).to.deep.equal([
        ['token', 1, undefined, 'quota', 2, undefined],
        ['token', 0, undefined, 'quota', 1, undefined],
        // The user's count took it, its quotas did not.
        ['token', 0, 'RateLimited'],
        ['default', 1, undefined, 'quota', 0, undefined],
        // Refused by the token's quota, counted by the user's window all the same.
        ['default', 0, 'QuotaExceeded', 'quota', 0, 'QuotaExceeded'],
        ['default', 0, 'RateLimited'],
      ]);
      const byPassword = await limiter.admit(OPERATION, { kind: 'password', user }, '127.0.0.1');
      expect(told(byPassword)).to.deep.equal(['default', 0, 'RateLimited']);
      // A limit above the default is counted alone: the user's quota has spent 3 of 10 before it, what the windows refused spent nothing.
      const generous = actorFor({
        token: aToken(user.id, { rateLimit: { requests: 10, perSeconds: 60 } }),
        user,
        issuer: null,
      });
      expect(told(await limiter.admit(OPERATION, generous, '127.0.0.1'))).to.deep.equal([
        'token',
        9,
        undefined,
        'quota',
        6,
        undefined,
      ]);
    });
  });
}

(HAS_REDIS_SERVER ? describe : describe.skip)('adapter: TokenRateLimiter with quotas on a Redis of its own', () => {
  let redis: ThrowawayRedis;
  let connection: RedisConnection;
  before(async () => {
    redis = await ThrowawayRedis.start();
    connection = new RedisConnection({ url: redis.url, commandTimeoutMs: 1_000 }, silent);
    await connection.start();
  });
  after(async () => {
    await connection.stop();
    await redis.stop();
  });

  /** Scripts Redis has run (EVALSHA, and EVAL when it did not know the script yet) since it started. */
  async function scriptsRun(): Promise<number> {
    const stats = await connection.client.info('commandstats');
    return [...stats.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce(
      (sum, [, calls]) => sum + Number(calls),
      0,
    );
  }

  it('asks Redis once a request, however many windows and quotas count it, and not at all once a window is spent', async () => {
    const limiter = new TokenRateLimiter(
      redisCounters(connection.client, testKeyPrefix()),
      { requests: 4, perSeconds: 60 },
      silent,
      new ManualClock(EVENING),
      new Quotas(new ManualClock(EVENING)),
    );
    const user = aUser({ quota: { requests: 100, per: 'month' } });
    const actor = actorFor({
      token: aToken(user.id, { rateLimit: { requests: 3, perSeconds: 60 }, quota: { requests: 50, per: 'day' } }),
      user,
      issuer: null,
    });
    const before = await scriptsRun();
    const verdicts = [];
    for (let i = 0; i < 5; i++) verdicts.push(told(await limiter.admit(OPERATION, actor, '127.0.0.1')));
    expect(verdicts.map(([, , refusal]) => refusal)).to.deep.equal([
      undefined,
      undefined,
      undefined,
      'RateLimited',
      'RateLimited',
    ]);
    // One script each for the three admitted; the token's window, spent by the third, refuses the
    // fourth here, which is still counted in the user's window (one script), spent by it in turn.
    expect((await scriptsRun()) - before).to.equal(4);
  });
});
