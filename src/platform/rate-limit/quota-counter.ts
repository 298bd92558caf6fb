import type { Redis } from 'ioredis';

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
 * Requests counted against quotas by key, all of one request's at once: the cost is added to
 * every charge only if each has room for it, so that a refused request spends nothing. A count
 * kept in this process is a value; a shared one a promise, which rejects only when nothing could count.
 */
export interface QuotaCounter {
  spend(charges: readonly QuotaCharge[], cost: number, now: number): QuotaSpend | Promise<QuotaSpend>;
  /** Gives back what an admitted `spend` of the same charges added, for a request refused after all; never rejects. */
  refund(charges: readonly QuotaCharge[], cost: number): void;
}

/** Counts in a map, each forgotten once its period has ended; ended periods are swept once a minute at most. */
export class MemoryQuotaCounter implements QuotaCounter {
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

  refund(charges: readonly QuotaCharge[], cost: number): void {
    for (const { key, endsAt } of charges) {
      const count = this.counts.get(key);
      if (count !== undefined && count.endsAt === endsAt) count.used = Math.max(count.used - cost, 0);
    }
  }

  private sweep(now: number): void {
    for (const [key, count] of this.counts) if (count.endsAt <= now) this.counts.delete(key);
    this.nextSweepAt = now + 60_000;
  }
}

/**
 * Checks every key has room, then adds the cost to each, in one step on the server:
 * KEYS the charges' keys; ARGV the cost, then each charge's limit and how long its key is kept (ms).
 */
const SPEND_SCRIPT = `
local cost = tonumber(ARGV[1])
local used = {}
local admitted = 1
for i, key in ipairs(KEYS) do
  used[i] = tonumber(redis.call('GET', key) or '0')
  if used[i] + cost > tonumber(ARGV[i * 2]) then admitted = 0 end
end
if admitted == 1 then
  for i, key in ipairs(KEYS) do
    used[i] = redis.call('INCRBY', key, cost)
    if used[i] == cost then redis.call('PEXPIRE', key, ARGV[i * 2 + 1]) end
  end
end
table.insert(used, 1, admitted)
return used
`;

/** How long past its period's end a key is kept: instances whose clocks differ a little still find it. */
const KEEP_PAST_END_MS = 3_600_000;

type SpendCommand = (numberOfKeys: number, ...keysAndArguments: (string | number)[]) => Promise<number[]>;

/**
 * Quota counts in Redis, shared by every instance, with this process's memory as the insurance
 * that counts (its own requests only) while Redis does not answer and hands back as soon as it
 * does again, as the rate limit counters do. A command is sent only to a connection that is ready.
 */
export function redisQuotaCounter(redis: Redis, keyPrefix: string): QuotaCounter {
  const insurance = new MemoryQuotaCounter();
  redis.defineCommand('utilityApiQuotaSpend', { lua: SPEND_SCRIPT });
  const send = (redis as unknown as { utilityApiQuotaSpend: SpendCommand }).utilityApiQuotaSpend.bind(redis);
  return {
    spend(charges, cost, now) {
      if (redis.status !== 'ready') return insurance.spend(charges, cost, now);
      const keys = charges.map(({ key }) => `${keyPrefix}${key}`);
      const limitsAndLifetimes = charges.flatMap(({ limit, endsAt }) => [
        limit,
        Math.max(endsAt - now, 0) + KEEP_PAST_END_MS,
      ]);
      return send(keys.length, ...keys, cost, ...limitsAndLifetimes).then(
        ([admitted, ...used]) => ({ admitted: admitted === 1, used: used.map(Number) }),
        () => insurance.spend(charges, cost, now),
      );
    },
    refund(charges, cost) {
      // Where it was spent is not known for sure: wherever the count is found, a little too much is better than a lost request.
      insurance.refund(charges, cost);
      if (redis.status !== 'ready') return;
      for (const { key } of charges) redis.decrby(`${keyPrefix}${key}`, cost).catch(() => {});
    },
  };
}
