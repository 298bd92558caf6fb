import { expect } from 'chai';
import { CountedLoginThrottle } from '../../src/families/users-and-tokens/adapters/counted-login-throttle.js';
import { memoryCounters, redisCounters } from '../../src/platform/rate-limit/counters.js';
import {
  accountKey,
  attemptKey,
  clientKey,
  LOGIN_THROTTLE_POLICY,
  loginThrottlePolicies,
  policyOfKey,
  type LoginThrottlePolicy,
} from '../../src/families/users-and-tokens/domain/auth/login-throttle.js';
import type { LoginThrottle } from '../../src/families/users-and-tokens/domain/auth/ports.js';
import { openTestRedis, REDIS_URL, type TestRedis } from '../support/redis.js';

/** Every adapter of the login throttle port, each opened fresh for one test with the given policy. */
type PolicyOf = (key: string) => LoginThrottlePolicy;
const throttleAdapters: {
  name: string;
  open: (policyOf: PolicyOf) => Promise<LoginThrottle>;
  close?: () => Promise<void>;
}[] = [{ name: 'counters in memory', open: async (policyOf) => new CountedLoginThrottle(memoryCounters, policyOf) }];
if (REDIS_URL) {
  const opened: TestRedis[] = [];
  throttleAdapters.push({
    name: 'counters in Redis',
    open: async (policyOf) => {
      const redis = await openTestRedis();
      opened.push(redis);
      return new CountedLoginThrottle(redisCounters(redis.client, redis.keyPrefix), policyOf);
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
      throttle = await adapter.open(() => LOGIN_THROTTLE_POLICY);
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

    it('takes back a failure it is asked to forgive, and the wait that failure earned with it', async () => {
      await fail('account:a', 3, T0);
      await throttle.forgive(['account:a', 'client:never-failed'], T0);
      expect(await throttle.failures('account:a', T0)).to.equal(2);
      expect(await throttle.failures('client:never-failed', T0)).to.equal(0);
      await fail('account:a', 3, T0);
      expect(await throttle.waitFor(['account:a'], T0)).to.equal(MINUTE);
      await throttle.forgive(['account:a'], T0);
      expect(await throttle.failures('account:a', T0)).to.equal(4);
      expect(await throttle.waitFor(['account:a'], T0)).to.equal(0);
      // Failed again, it waits again, at the same moment as the failure taken back.
      await throttle.recordFailure(['account:a'], T0);
      expect(await throttle.waitFor(['account:a'], T0)).to.equal(MINUTE);
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
      const capped = await adapter.open(() => ({ ...LOGIN_THROTTLE_POLICY, maxWaitMs: 3 * MINUTE }));
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

    it('says how many failures a key has within its window', async () => {
      expect(await throttle.failures('account:a', T0)).to.equal(0);
      await fail('account:a', 3, T0);
      expect(await throttle.failures('account:a', T0 + MINUTE)).to.equal(3);
      expect(await throttle.failures('account:b', T0 + MINUTE)).to.equal(0);
      expect(await throttle.failures('account:a', T0 + 15 * MINUTE)).to.equal(0);
    });

    it('follows each key’s own policy: an attempt waits after 5, an address after perAddress, an account never', async () => {
      const byKind = await adapter.open(policyOfKey(loginThrottlePolicies(8)));
      const account = accountKey('a');
      for (let i = 0; i < 5; i++)
        await byKind.recordFailure([attemptKey(account, '192.0.2.1'), clientKey('192.0.2.1'), account], T0);
      expect(await byKind.waitFor([attemptKey(account, '192.0.2.1')], T0)).to.equal(MINUTE);
      expect(
        await byKind.waitFor(
          [clientKey('192.0.2.1'), attemptKey(account, '192.0.2.2'), attemptKey(accountKey('b'), '192.0.2.1')],
          T0,
        ),
      ).to.equal(0);
      for (let i = 0; i < 3; i++) await byKind.recordFailure([clientKey('192.0.2.1'), account], T0);
      expect(await byKind.waitFor([clientKey('192.0.2.1')], T0)).to.equal(MINUTE);
      for (let i = 0; i < 30; i++) await byKind.recordFailure([account], T0);
      expect(await byKind.waitFor([account], T0)).to.equal(0);
      expect(await byKind.failures(account, T0)).to.equal(38);
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
