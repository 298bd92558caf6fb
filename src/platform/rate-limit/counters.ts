import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** One request counted against its key's window, and where that leaves the key. */
export interface Count {
  /** False once the key has spent its window: this request and those after it until the window ends. */
  readonly admitted: boolean;
  readonly remaining: number;
  readonly msBeforeNext: number;
}

/**
 * Requests counted by key in fixed windows. A count kept in this process is a value; a shared
 * one a promise, which rejects only when nothing could count.
 */
export interface RequestWindow {
  consume(key: string): Count | Promise<Count>;
}

/**
 * Fixed-window counters by key: in this process, or in Redis where every instance shares them.
 * `window` gives rate-limiter-flexible's counters of one namespace, `points` per window of
 * `durationSeconds` (what the login throttle reads and writes); `requestWindow` the same counting
 * reduced to the one call made on every request.
 */
export interface Counters {
  window(namespace: string, points: number, durationSeconds: number): RateLimiterAbstract;
  requestWindow(namespace: string, points: number, durationSeconds: number): RequestWindow;
}

/**
 * A window per key in a map, answered synchronously: rate-limiter-flexible's memory limiter
 * answers through a promise and a timer per key, the largest cost the limiter added to a request.
 * A key's window starts at its first request, as there; ended windows are swept once a window.
 */
export class MemoryRequestWindow implements RequestWindow {
  private readonly windows = new Map<string, { count: number; readonly endsAt: number }>();
  private nextSweepAt: number;

  constructor(
    private readonly points: number,
    private readonly durationMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.nextSweepAt = now() + durationMs;
  }

  consume(key: string): Count {
    const now = this.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.durationMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return {
      admitted: window.count <= this.points,
      remaining: Math.max(this.points - window.count, 0),
      msBeforeNext: window.endsAt - now,
    };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    this.nextSweepAt = now + this.durationMs;
  }
}

export const memoryCounters: Counters = {
  window: (namespace, points, durationSeconds) =>
    new RateLimiterMemory({ keyPrefix: namespace, points, duration: durationSeconds }),
  requestWindow: (_namespace, points, durationSeconds) => new MemoryRequestWindow(points, durationSeconds * 1000),
};

const countOf = (admitted: boolean, { remainingPoints, msBeforeNext }: RateLimiterRes): Count => ({
  admitted,
  remaining: remainingPoints,
  msBeforeNext,
});

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
  const window = (namespace: string, points: number, durationSeconds: number): RateLimiterRedis =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${keyPrefix}${namespace}`,
      points,
      duration: durationSeconds,
      rejectIfRedisNotReady: true,
      inMemoryBlockOnConsumed: points,
      insuranceLimiter: memoryCounters.window(namespace, points, durationSeconds),
    });
  return {
    window,
    requestWindow(namespace, points, durationSeconds) {
      const limiter = window(namespace, points, durationSeconds);
      return {
        // Each request is one round trip: a script that increments and reads the window's end together.
        consume: (key) =>
          limiter.consume(key).then(
            (counted) => countOf(true, counted),
            (refused: unknown) =>
              refused instanceof RateLimiterRes ? countOf(false, refused) : Promise.reject(refused),
          ),
      };
    },
  };
}
