import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { waitAfter, type LoginThrottlePolicy } from '../domain/auth/login-throttle.js';
import type { LoginThrottle } from '../domain/auth/ports.js';
import type { Counters } from '../../../platform/rate-limit/counters.js';

interface Failures {
  readonly count: number;
  /** When the count is forgotten: the window's end, or the window after the wait it earned. */
  readonly forgetAt: number;
  readonly waitUntil: number;
}

/** The window the counters are made with; each record is written with its own duration instead. */
const UNUSED_WINDOW_SECONDS = 900;

/**
 * Failed logins kept in the same counters as request rate limits, so that on Redis every
 * instance sees every failure (and, while Redis is down, each counts its own). Per key: the count,
 * when it is forgotten and until when the key waits, each in a namespace of its own, under the
 * policy `policyOf` gives the key. The times are the caller's clock, as the port asks; the stores
 * expire the keys by the same amounts.
 *
 * Failures within a window are counted by an atomic increment; only the failure that earns a
 * wait (or starts a window) writes the whole state.
 */
export class CountedLoginThrottle implements LoginThrottle {
  private readonly counts: RateLimiterAbstract;
  private readonly forgetTimes: RateLimiterAbstract;
  private readonly waitTimes: RateLimiterAbstract;

  constructor(
    counters: Counters,
    private readonly policyOf: (key: string) => LoginThrottlePolicy,
  ) {
    this.counts = counters.window('login:failures', Number.MAX_SAFE_INTEGER, UNUSED_WINDOW_SECONDS);
    this.forgetTimes = counters.window('login:forget-at', Number.MAX_SAFE_INTEGER, UNUSED_WINDOW_SECONDS);
    this.waitTimes = counters.window('login:wait-until', Number.MAX_SAFE_INTEGER, UNUSED_WINDOW_SECONDS);
  }

  async waitFor(keys: readonly string[], now: number): Promise<number> {
    const waits = await Promise.all(
      keys.map(async (key) => Math.max(((await this.current(key, now))?.waitUntil ?? 0) - now, 0)),
    );
    return Math.max(0, ...waits);
  }

  async failures(key: string, now: number): Promise<number> {
    return (await this.current(key, now))?.count ?? 0;
  }

  async recordFailure(keys: readonly string[], now: number): Promise<void> {
    await Promise.all(keys.map((key) => this.recordOne(key, now)));
  }

  async forgive(keys: readonly string[], now: number): Promise<void> {
    await Promise.all(
      keys.map(async (key) => {
        const current = await this.current(key, now);
        // A count already forgotten stays so.
        if (current === undefined || current.count === 0) return;
        const count = (await this.counts.reward(key, 1)).consumedPoints;
        // A wait that the failure taken back had earned goes with it.
        if (current.waitUntil > now && waitAfter(this.policyOf(key), count) === 0) {
          await this.waitTimes.set(key, 0, Math.max(Math.ceil((current.forgetAt - now) / 1000), 1));
        }
      }),
    );
  }

  async clear(key: string): Promise<void> {
    await Promise.all([this.counts.delete(key), this.forgetTimes.delete(key), this.waitTimes.delete(key)]);
  }

  private async current(key: string, now: number): Promise<Failures | undefined> {
    const [count, forgetAt, waitUntil] = await Promise.all([
      this.counts.get(key),
      this.forgetTimes.get(key),
      this.waitTimes.get(key),
    ]);
    if (count === null || forgetAt === null || forgetAt.consumedPoints <= now) return undefined;
    return {
      count: count.consumedPoints,
      forgetAt: forgetAt.consumedPoints,
      waitUntil: waitUntil?.consumedPoints ?? 0,
    };
  }

  private async recordOne(key: string, now: number): Promise<void> {
    const policy = this.policyOf(key);
    const previous = await this.current(key, now);
    const count = previous === undefined ? 1 : (await this.counts.penalty(key, 1)).consumedPoints;
    const wait = waitAfter(policy, count);
    const waitUntil = wait > 0 ? now + wait : 0;
    const windowEnd = previous?.forgetAt ?? now + policy.windowMs;
    // A key that earned a wait keeps its count for a window after it, so the next failure doubles it.
    const forgetAt = Math.max(windowEnd, waitUntil + policy.windowMs);
    if (previous !== undefined && forgetAt === previous.forgetAt && waitUntil === previous.waitUntil) return;
    const seconds = Math.max(Math.ceil((forgetAt - now) / 1000), 1);
    await Promise.all([
      this.counts.set(key, count, seconds),
      this.forgetTimes.set(key, forgetAt, seconds),
      this.waitTimes.set(key, waitUntil, seconds),
    ]);
  }
}
