import { expect } from 'chai';
import { CountedLoginThrottle } from '../../src/adapters/rate-limit/counted-login-throttle.js';
import { memoryCounters, redisCounters } from '../../src/adapters/rate-limit/counters.js';
import { LOGIN_THROTTLE_POLICY, type LoginThrottlePolicy } from '../../src/domain/auth/login-throttle.js';
import type { LoginThrottle } from '../../src/domain/auth/ports.js';
import { openTestRedis, REDIS_URL, type TestRedis } from '../support/redis.js';

/** Every adapter of the login throttle port, each opened fresh for one test with the given policy. */
const throttleAdapters: { name: string; open: (policy: LoginThrottlePolicy) => Promise<LoginThrottle>; close?: () => Promise<void> }[] = [
  { name: 'counters in memory', open: async (policy) => new CountedLoginThrottle(memoryCounters, policy) },
];
if (REDIS_URL) {
  const opened: TestRedis[] = [];
  throttleAdapters.push({
    name: 'counters in Redis',
    open: async (policy) => {
      const redis = await openTestRedis();
      opened.push(redis);
      return new CountedLoginThrottle(redisCounters(redis.client, redis.keyPrefix), policy);
    },
    close: async () => {
      await Promise.all(opened.splice(0).map((redis) => redis.close()));
    },
  });
}

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1);

for (const adapter of throttleAdapters) {
  describe(`contract: LoginThrottle (${adapter.name})`, () => {
    let throttle: LoginThrottle;
    beforeEach(async () => {
      throttle = await adapter.open(LOGIN_THROTTLE_POLICY);
    });
    afterEach(async () => adapter.close?.());

    const fail = async (key: string, times: number, at: number) => {
      for (let i = 0; i < times; i++) await throttle.recordFailure([key], at);
    };

    it('lets a key with no failures try at once', async () => {
      expect(await throttle.waitFor(['account:a', 'client:1'], T0)).to.equal(0);
    });

    it('makes a key wait a minute after 5 failures in 15 minutes, not after 4', async () => {
      await fail('account:a', 4, T0);
      expect(await throttle.waitFor(['account:a'], T0 + 14 * MINUTE)).to.equal(0);
      await throttle.recordFailure(['account:a'], T0 + 14 * MINUTE);
      expect(await throttle.waitFor(['account:a'], T0 + 14 * MINUTE)).to.equal(MINUTE);
      expect(await throttle.waitFor(['account:a'], T0 + 14 * MINUTE + 20_000)).to.equal(40_000);
      expect(await throttle.waitFor(['account:a'], T0 + 15 * MINUTE)).to.equal(0);
    });

    it('doubles the wait with every failure after the fifth while the key is remembered', async () => {
      await fail('account:a', 5, T0);
      let now = T0 + MINUTE;
      const waits: number[] = [];
      for (let i = 0; i < 4; i++) {
        await throttle.recordFailure(['account:a'], now);
        const wait = await throttle.waitFor(['account:a'], now);
        waits.push(wait);
        now += wait;
      }
      expect(waits).to.deep.equal([2 * MINUTE, 4 * MINUTE, 8 * MINUTE, 16 * MINUTE]);
    });

    it('never makes a key wait longer than the policy’s longest wait', async () => {
      const capped = await adapter.open({ ...LOGIN_THROTTLE_POLICY, maxWaitMs: 3 * MINUTE });
      for (let i = 0; i < 12; i++) await capped.recordFailure(['account:a'], T0 + i);
      expect(await capped.waitFor(['account:a'], T0 + 12)).to.equal(3 * MINUTE - 1);
    });

    it('forgets failures 15 minutes after the first when they earned no wait', async () => {
      await fail('account:a', 4, T0);
      await throttle.recordFailure(['account:a'], T0 + 15 * MINUTE);
      expect(await throttle.waitFor(['account:a'], T0 + 15 * MINUTE)).to.equal(0);
      await fail('account:a', 3, T0 + 16 * MINUTE);
      expect(await throttle.waitFor(['account:a'], T0 + 16 * MINUTE)).to.equal(0);
      await throttle.recordFailure(['account:a'], T0 + 16 * MINUTE);
      expect(await throttle.waitFor(['account:a'], T0 + 16 * MINUTE)).to.equal(MINUTE);
    });

    it('counts each key of an attempt, keeps keys apart, and waits for the longest of those asked', async () => {
      for (let i = 0; i < 5; i++) await throttle.recordFailure([`account:${i}`, 'client:1'], T0);
      expect(await throttle.waitFor(['account:0'], T0)).to.equal(0);
      expect(await throttle.waitFor(['client:1'], T0)).to.equal(MINUTE);
      expect(await throttle.waitFor(['account:new', 'client:1'], T0)).to.equal(MINUTE);
      expect(await throttle.waitFor(['account:new', 'client:2'], T0)).to.equal(0);
    });

    it('forgets a cleared key at once and only that key', async () => {
      await fail('account:a', 5, T0);
      await fail('client:1', 5, T0);
      await throttle.clear('account:a');
      expect(await throttle.waitFor(['account:a'], T0)).to.equal(0);
      expect(await throttle.waitFor(['client:1'], T0)).to.equal(MINUTE);
      await fail('account:a', 4, T0);
      expect(await throttle.waitFor(['account:a'], T0)).to.equal(0);
    });
  });
}
