import { waitAfter, type LoginThrottlePolicy } from '../../domain/auth/login-throttle.js';
import type { LoginThrottle } from '../../domain/auth/ports.js';

interface Failures {
  readonly count: number;
  /** When the count is forgotten: the window's end, or the window after the wait it earned. */
  readonly forgetAt: number;
  readonly waitUntil: number;
}

/**
 * Failures in a Map, for one process. Its counts are lost on restart and not shared between
 * instances; a shared adapter (Redis) keeps the same rules for many.
 */
export class MemoryLoginThrottle implements LoginThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly policy: LoginThrottlePolicy,
    /** Beyond this many keys, forgotten ones are swept out before another is added. */
    private readonly maxKeys = 100_000,
  ) {}

  async waitFor(keys: readonly string[], now: number): Promise<number> {
    let wait = 0;
    for (const key of keys) {
      const entry = this.current(key, now);
      if (entry) wait = Math.max(wait, entry.waitUntil - now);
    }
    return wait;
  }

  async recordFailure(keys: readonly string[], now: number): Promise<void> {
    for (const key of keys) {
      const previous = this.current(key, now);
      const count = (previous?.count ?? 0) + 1;
      const wait = waitAfter(this.policy, count);
      const waitUntil = wait > 0 ? now + wait : 0;
      const windowEnd = previous?.forgetAt ?? now + this.policy.windowMs;
      // A key that earned a wait keeps its count for a window after it, so the next failure doubles it.
      const forgetAt = Math.max(windowEnd, waitUntil + this.policy.windowMs);
      if (!previous && this.failures.size >= this.maxKeys) this.sweep(now);
      this.failures.set(key, { count, forgetAt, waitUntil });
    }
  }

  async clear(key: string): Promise<void> {
    this.failures.delete(key);
  }

  private current(key: string, now: number): Failures | undefined {
    const entry = this.failures.get(key);
    if (entry && entry.forgetAt <= now) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.failures) if (entry.forgetAt <= now) this.failures.delete(key);
    // Still full of live keys: drop the oldest (Maps iterate in insertion order).
    while (this.failures.size >= this.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }
}
