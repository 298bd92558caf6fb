import { expect } from 'chai';
import pino from 'pino';
import { MemoryQuotaCounter, type QuotaCharge } from '../../src/platform/rate-limit/quota-counter.js';
import {
  MemoryRequestCounter,
  redisRequestCounter,
  type RequestCount,
  type RequestCounter,
  type RequestWindow,
} from '../../src/platform/rate-limit/request-counter.js';
import { RedisConnection } from '../../src/platform/redis/redis-connection.js';
import { closedPort, openTestRedis, REDIS_URL, type TestRedis } from '../support/redis.js';

const NOW = Date.UTC(2026, 10, 26, 12);
const END = Date.UTC(2026, 10, 27);
const silent = pino({ level: 'silent' });

interface CounterUnderTest {
  readonly counter: RequestCounter;
  close(): Promise<void>;
}

const adapters: { name: string; open(): Promise<CounterUnderTest> }[] = [
  { name: 'memory', open: async () => ({ counter: new MemoryRequestCounter(), close: async () => {} }) },
  {
    name: 'Redis that is down (the insurance counts)',
    async open(): Promise<CounterUnderTest> {
      const connection = new RedisConnection(
        { url: `redis://127.0.0.1:${await closedPort()}`, commandTimeoutMs: 250 },
        silent,
      );
      await connection.start();
      return { counter: redisRequestCounter(connection.client, 'down:'), close: () => connection.stop() };
    },
  },
  ...(REDIS_URL
    ? [
        {
          name: 'Redis',
          async open(): Promise<CounterUnderTest> {
            const redis: TestRedis = await openTestRedis();
            return { counter: redisRequestCounter(redis.client, redis.keyPrefix), close: () => redis.close() };
          },
        },
      ]
    : []),
];

const window = (points: number, durationSeconds = 60): RequestWindow => ({
  namespace: `rate:${points}/${durationSeconds}`,
  points,
  durationSeconds,
});

for (const adapter of adapters) {
  describe(`contract: RequestCounter (${adapter.name})`, () => {
    let under: CounterUnderTest;
    beforeEach(async () => {
      under = await adapter.open();
    });
    afterEach(async () => under.close());

    const count = (
      windows: readonly RequestWindow[],
      keys: readonly string[],
      charges?: readonly QuotaCharge[],
      cost = 1,
    ): Promise<RequestCount> =>
      Promise.resolve(under.counter.count(windows, keys, charges && { charges, cost, now: NOW }));
    const spend = async (charges: readonly QuotaCharge[], cost = 1) => (await count([], [], charges, cost)).quotas;
    /** Admitted and remaining of each window, and the quotas' spend. */
    const outline = ({ windows, quotas }: RequestCount) => ({
      windows: windows.map(({ admitted, remaining }) => [admitted, remaining]),
      quotas,
    });

    describe('quotas', () => {
      it('adds the cost while there is room, then refuses without spending anything', async () => {
        const charge = { key: 'quota:token:a:day:1', limit: 3, endsAt: END };
        expect(await spend([charge], 2)).to.deep.equal({ admitted: true, used: [2] });
        expect(await spend([charge], 2)).to.deep.equal({ admitted: false, used: [2] });
        expect(await spend([charge], 1)).to.deep.equal({ admitted: true, used: [3] });
        expect(await spend([charge], 1)).to.deep.equal({ admitted: false, used: [3] });
      });

      it('charges every quota of a request or none: one without room spares the others', async () => {
        const token = { key: 'quota:token:b:day:1', limit: 10, endsAt: END };
        const user = { key: 'quota:user:b:month:1', limit: 2, endsAt: END };
        expect(await spend([token, user])).to.deep.equal({ admitted: true, used: [1, 1] });
        expect(await spend([token, user])).to.deep.equal({ admitted: true, used: [2, 2] });
        expect(await spend([token, user])).to.deep.equal({ admitted: false, used: [2, 2] });
        expect(await spend([token])).to.deep.equal({ admitted: true, used: [3] });
      });

      it('counts each key alone', async () => {
        expect(await spend([{ key: 'quota:token:c:day:1', limit: 1, endsAt: END }])).to.deep.equal({
          admitted: true,
          used: [1],
        });
        expect(await spend([{ key: 'quota:token:d:day:1', limit: 1, endsAt: END }])).to.deep.equal({
          admitted: true,
          used: [1],
        });
      });
    });

    describe('windows', () => {
      it('counts a key up to its points, then refuses it until the window ends, saying when', async () => {
        const limit = window(2);
        for (const remaining of [1, 0]) {
          const [counted] = (await count([limit], ['user:a'])).windows;
          expect(counted).to.include({ admitted: true, remaining });
        }
        for (let i = 0; i < 2; i++) {
          const [refused] = (await count([limit], ['user:a'])).windows;
          expect(refused).to.include({ admitted: false, remaining: 0 });
          expect(refused!.msBeforeNext).to.be.within(1, 60_000);
        }
        expect((await count([limit], ['user:b'])).windows[0]).to.include({ admitted: true, remaining: 1 });
      });

      it('keeps the counts of windows of different sizes apart, even under the same key', async () => {
        expect(outline(await count([window(1), window(3)], ['user:c', 'user:c']))).to.deep.equal({
          windows: [
            [true, 0],
            [true, 2],
          ],
          quotas: undefined,
        });
        expect(outline(await count([window(3)], ['user:c']))).to.deep.equal({
          windows: [[true, 1]],
          quotas: undefined,
        });
      });
    });

    describe('windows and quotas together', () => {
      it('spends no quota on a request a window refuses, and counts it in its other windows', async () => {
        const charge = { key: 'quota:token:e:day:1', limit: 10, endsAt: END };
        const own = window(1);
        const user = window(5);
        const keys = ['token:e', 'user:e'];
        expect(outline(await count([own, user], keys, [charge]))).to.deep.equal({
          windows: [
            [true, 0],
            [true, 4],
          ],
          quotas: { admitted: true, used: [1] },
        });
        for (const left of [3, 2])
          expect(outline(await count([own, user], keys, [charge]))).to.deep.equal({
            windows: [
              [false, 0],
              [true, left],
            ],
            quotas: undefined,
          });
        expect(await spend([charge], 0)).to.deep.equal({ admitted: true, used: [1] });
      });

      it('counts a request its quota refuses in its windows all the same', async () => {
        const charge = { key: 'quota:token:f:day:1', limit: 1, endsAt: END };
        const limit = window(5);
        expect(outline(await count([limit], ['user:f'], [charge]))).to.deep.equal({
          windows: [[true, 4]],
          quotas: { admitted: true, used: [1] },
        });
        expect(outline(await count([limit], ['user:f'], [charge]))).to.deep.equal({
          windows: [[true, 3]],
          quotas: { admitted: false, used: [1] },
        });
        expect(outline(await count([limit], ['user:f']))).to.deep.equal({ windows: [[true, 2]], quotas: undefined });
      });
    });
  });
}

describe('MemoryQuotaCounter', () => {
  it('forgets a count once its period has ended', () => {
    const counter = new MemoryQuotaCounter();
    const charge = { key: 'quota:token:e:day:1', limit: 1, endsAt: END };
    expect(counter.spend([charge], 1, NOW).admitted).to.equal(true);
    expect(counter.spend([charge], 1, END - 1).admitted).to.equal(false);
    expect(counter.spend([charge], 1, END).admitted).to.equal(true);
  });
});
