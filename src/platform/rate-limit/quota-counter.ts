/** One quota a request is charged against: its key (naming the period), its limit, and when the period ends. */
export interface QuotaCharge {
  readonly key: string;
  readonly limit: number;
  readonly endsAt: number;
}

/** Whether every charge had room for the cost, and what each has used since its period began (the cost included when admitted). */
export interface QuotaSpend {
  readonly admitted: boolean;
  readonly used: readonly number[];
}

/**
 * Requests counted against quotas by key, in a map, all of one request's at once: the cost is
 * added to every charge only if each has room for it, so that a refused request spends nothing.
 * Each count is forgotten once its period has ended; ended periods are swept once a minute at most.
 * `RequestCounter` counts so, in memory or (with the same rule) in Redis.
 */
export class MemoryQuotaCounter {
  private readonly counts = new Map<string, { used: number; readonly endsAt: number }>();
  private nextSweepAt = 0;

  spend(charges: readonly QuotaCharge[], cost: number, now: number): QuotaSpend {
    if (now >= this.nextSweepAt) this.sweep(now);
    // Plain loops: this runs on every request of a token or user with a quota.
    let admitted = true;
    const found: ({ used: number; readonly endsAt: number } | undefined)[] = [];
    const used: number[] = [];
    for (const { key, limit, endsAt } of charges) {
      let count = this.counts.get(key);
      if (count !== undefined && (count.endsAt <= now || count.endsAt !== endsAt)) count = undefined;
      const spent = count === undefined ? 0 : count.used;
      if (spent + cost > limit) admitted = false;
      found.push(count);
      used.push(spent);
    }
    if (!admitted) return { admitted, used };
    for (let i = 0; i < charges.length; i++) {
      const count = found[i];
      used[i] = used[i]! + cost;
      if (count !== undefined) count.used = used[i]!;
      else this.counts.set(charges[i]!.key, { used: used[i]!, endsAt: charges[i]!.endsAt });
    }
    return { admitted, used };
  }

  private sweep(now: number): void {
    for (const [key, count] of this.counts) if (count.endsAt <= now) this.counts.delete(key);
    this.nextSweepAt = now + 60_000;
  }
}
