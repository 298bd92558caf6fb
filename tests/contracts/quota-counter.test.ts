import { expect } from 'chai';
import {
  MemoryQuotaCounter,
  redisQuotaCounter,
  type QuotaCounter,
} from '../../src/platform/rate-limit/quota-counter.js';
import { eventually } from '../support/eventually.js';
import { openTestRedis, REDIS_URL, type TestRedis } from '../support/redis.js';

/** A refund is not awaited: it is seen by the next count soon after, not necessarily at once. */
async function eventuallyEqual(read: () => Promise<unknown>, expected: unknown): Promise<void> {
  await eventually(async () => expect(await read()).to.deep.equal(expected));
}

const NOW = Date.UTC(2026, 10, 26, 12);
const END = Date.UTC(2026, 10, 27);

interface CounterUnderTest {
  readonly counter: QuotaCounter;
  close(): Promise<void>;
}

const adapters: { name: string; open(): Promise<CounterUnderTest> }[] = [
  { name: 'memory', open: async () => ({ counter: new MemoryQuotaCounter(), close: async () => {} }) },
  ...(REDIS_URL
    ? [
        {
          name: 'Redis',
          async open(): Promise<CounterUnderTest> {
            const redis: TestRedis = await openTestRedis();
            return { counter: redisQuotaCounter(redis.client, redis.keyPrefix), close: () => redis.close() };
          },
        },
      ]
    : []),
];

for (const adapter of adapters) {
  describe(`contract: QuotaCounter (${adapter.name})`, () => {
    let under: CounterUnderTest;
    beforeEach(async () => {
      under = await adapter.open();
    });
    afterEach(async () => under.close());

    const spend = (charges: Parameters<QuotaCounter['spend']>[0], cost = 1, now = NOW) =>
      Promise.resolve(under.counter.spend(charges, cost, now));

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

    it('gives back what a request refused after all had spent', async () => {
      const charges = [
        { key: 'quota:token:f:day:1', limit: 2, endsAt: END },
        { key: 'quota:user:f:day:1', limit: 5, endsAt: END },
      ];
      expect(await spend(charges, 2)).to.deep.equal({ admitted: true, used: [2, 2] });
      under.counter.refund(charges, 2);
      await eventuallyEqual(() => spend(charges, 0), { admitted: true, used: [0, 0] });
      expect(await spend(charges, 2)).to.deep.equal({ admitted: true, used: [2, 2] });
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
