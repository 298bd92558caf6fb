import type { Clock } from '../../../domain/ports.js';

/**
 * Outcomes of lookups kept until their own expiry, at most `maxEntries` of them (the oldest go
 * first), with one lookup in flight per key: identical questions that arrive together share it.
 *
 * Kept, measured (issue 25, bench/caches.ts): lru-cache 11's fetch hits in 162 ns against 219 here, but would need a
 * port, an adapter, and work-arounds for a TTL of 0 ("forever" there) and expiry after the TTL rather than at it.
 */
export class ExpiringCache<R> {
  private readonly entries = new Map<string, { readonly outcome: R; readonly expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<R>>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries: number,
  ) {}

  /** The kept outcome for `key`, or that of `lookUp`, kept for `ttlOf` it ms (0 or less: not kept, as a failure). */
  get(key: string, lookUp: () => Promise<R>, ttlOf: (outcome: R) => number): Promise<R> {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      if (this.clock.now() < entry.expiresAt) return Promise.resolve(entry.outcome);
      this.entries.delete(key);
    }
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;
    const looking = lookUp()
      .then((outcome) => {
        this.remember(key, outcome, ttlOf(outcome));
        return outcome;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, looking);
    return looking;
  }

  private remember(key: string, outcome: R, ttlMs: number): void {
    if (ttlMs <= 0 || this.maxEntries <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { outcome, expiresAt: this.clock.now() + ttlMs });
  }
}
