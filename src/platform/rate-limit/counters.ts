import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { MemoryRequestCounter, redisRequestCounter, type RequestCounter } from './request-counter.js';

/**
 * Fixed-window counters by key: in this process, or in Redis where every instance shares them.
 * `window` gives rate-limiter-flexible's counters of one namespace, `points` per window of
 * `durationSeconds` (what the login throttle reads and writes); `requestCounter` counts each
 * request in its windows and against its quotas in one step, the one call made on every request.
 */
export interface Counters {
  window(namespace: string, points: number, durationSeconds: number): RateLimiterAbstract;
  /** Each call makes a counter with this process's counts of its own (for Redis, its insurance's). */
  requestCounter(): RequestCounter;
}

export const memoryCounters: Counters = {
  window: (namespace, points, durationSeconds) =>
    new RateLimiterMemory({ keyPrefix: namespace, points, duration: durationSeconds }),
  requestCounter: () => new MemoryRequestCounter(),
};

/**
 * Counters in Redis, each namespace with an in-memory insurance limiter of the same window that
 * takes over while Redis does not answer (its counts are then this instance's own) and hands
 * back as soon as it does again. A command is sent only to a connection that is ready, so that
 * an outage costs a request nothing but the switch.
 *
 * Once a key has spent its window, it is refused from this process's memory until the window
 * ends (`inMemoryBlockOnConsumed`): a client over its limit costs Redis nothing more.
 */
export function redisCounters(redis: Redis, keyPrefix: string): Counters {
  return {
    window: (namespace, points, durationSeconds) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${keyPrefix}${namespace}`,
        points,
        duration: durationSeconds,
        rejectIfRedisNotReady: true,
        inMemoryBlockOnConsumed: points,
        insuranceLimiter: memoryCounters.window(namespace, points, durationSeconds),
      }),
    requestCounter: () => redisRequestCounter(redis, keyPrefix),
  };
}
