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
}

/** Counts in a map, each forgotten once its period has ended; ended periods are swept once a minute at most. */
export class MemoryQuotaCounter implements QuotaCounter {
  private readonly counts = new Map<string, { used: number; readonly endsAt: number }>();
  private nextSweepAt = 0;

  spend(charges: readonly QuotaCharge[], cost: number, now: number): QuotaSpend {
    if (now >= this.nextSweepAt) this.sweep(now);
    let admitted = true;
    const used = charges.map(({ key, limit, endsAt }) => {
      const count = this.counts.get(key);
      const spent = count === undefined || count.endsAt <= now || count.endsAt !== endsAt ? 0 : count.used;
      if (spent + cost > limit) admitted = false;
      return spent;
    });
    if (!admitted) return { admitted, used };
    charges.forEach(({ key, endsAt }, i) => {
      const count = this.counts.get(key);
      used[i] = used[i]! + cost;
      if (count !== undefined && count.endsAt === endsAt) count.used = used[i];
      else this.counts.set(key, { used: used[i], endsAt });
    });
    return { admitted, used };
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
  };
}
