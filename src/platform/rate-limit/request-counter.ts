import type { Redis } from 'ioredis';
import { MemoryQuotaCounter, type QuotaCharge, type QuotaSpend } from './quota-counter.js';

/** One request counted against its key's window, and where that leaves the key. */
export interface Count {
  /** False once the key has spent its window: this request and those after it until the window ends. */
  readonly admitted: boolean;
  readonly remaining: number;
  readonly msBeforeNext: number;
}

/**
 * Fixed windows of `points` requests per `durationSeconds` for each key, counted under
 * `namespace`: one namespace is one window size.
 */
export interface RequestWindow {
  readonly namespace: string;
  readonly points: number;
  readonly durationSeconds: number;
}

/** What a request costs against its quotas, at the moment `now` of the clock their periods are read from. */
export interface QuotaRequest {
  readonly charges: readonly QuotaCharge[];
  readonly cost: number;
  readonly now: number;
}

export interface RequestCount {
  /** The request's count in each of its windows, in the order they were given. */
  readonly windows: readonly Count[];
  /** What its quotas have used; undefined when it had none, or when a window refused it (then nothing was spent). */
  readonly quotas: QuotaSpend | undefined;
}

/**
 * Counts each request in every one of its windows and then, only if every window admits it,
 * against its quotas, all or none (see `MemoryQuotaCounter`): a request refused by a window spends
 * no quota, one refused by a quota is still counted in its windows. A count kept in this process
 * is a value; a shared one a promise, which rejects only when nothing could count.
 */
export interface RequestCounter {
  /** `keys[i]` is the request's key in `windows[i]`. */
  count(
    windows: readonly RequestWindow[],
    keys: readonly string[],
    quotas: QuotaRequest | undefined,
  ): RequestCount | Promise<RequestCount>;
}

/**
 * A window per key in a map, answered synchronously: rate-limiter-flexible's memory limiter
 * answers through a promise and a timer per key, the largest cost the limiter added to a request.
 * A key's window starts at its first request, as there; ended windows are swept once a window.
 */
export class MemoryRequestWindow {
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

/** Windows and quotas counted in this process's memory, each window's counts apart by namespace. */
export class MemoryRequestCounter implements RequestCounter {
  private readonly windows = new Map<string, MemoryRequestWindow>();
  private readonly quotas = new MemoryQuotaCounter();

  count(windows: readonly RequestWindow[], keys: readonly string[], quotas: QuotaRequest | undefined): RequestCount {
    const counts: Count[] = [];
    let admitted = true;
    for (let i = 0; i < windows.length; i++) {
      const count = this.windowOf(windows[i]!).consume(keys[i]!);
      if (!count.admitted) admitted = false;
      counts.push(count);
    }
    const spent =
      admitted && quotas !== undefined ? this.quotas.spend(quotas.charges, quotas.cost, quotas.now) : undefined;
    return { windows: counts, quotas: spent };
  }

  private windowOf({ namespace, points, durationSeconds }: RequestWindow): MemoryRequestWindow {
    let window = this.windows.get(namespace);
    if (window === undefined) {
      window = new MemoryRequestWindow(points, durationSeconds * 1000);
      this.windows.set(namespace, window);
    }
    return window;
  }
}

/**
 * One request's windows, then its quotas, in one step on the server, so that a request costs one
 * round trip whatever it is counted against.
 *
 * KEYS: the windows' keys, then the quotas' keys. ARGV: the number of windows; each window's
 * length in seconds and points; then the cost and each quota's limit and how long its key is kept
 * (ms). Each window is counted as rate-limiter-flexible's Redis limiter counts (the same script,
 * so instances of either kind share a count): its key made with the window's expiry on first use,
 * then incremented. The quotas are read only when every window admits the request, and charged
 * only when each has room for the cost.
 *
 * Returns each window's count and milliseconds left, then, when the quotas were read, 1 if they
 * were charged (else 0) and what each has used.
 *
 * Written here rather than counting with rate-limiter-flexible's limiter and a second script for
 * the quotas, for what a round trip costs the product: with a quota, that was two scripts a
 * request. Measured on 2026-11-26 (a busy 2-core machine, `bench/crypto.ts` with `BENCH_QUOTA`,
 * three alternating pairs of runs): the server CPU per request counting in Redis went from 1.44–
 * 1.57× that counting in memory to 1.02–1.30×; in one process against a Redis of its own, 50
 * requests at a time, the limiter's own CPU per request went from 28–36 µs to 17–22 µs.
 */
const COUNT_SCRIPT = `
local windows = tonumber(ARGV[1])
local counted = {}
local admitted = 1
for i = 1, windows do
  local key = KEYS[i]
  local seconds = ARGV[i * 2]
  redis.call('SET', key, 0, 'EX', seconds, 'NX')
  local consumed = redis.call('INCRBY', key, 1)
  local ttl = redis.call('PTTL', key)
  if ttl == -1 then
    redis.call('EXPIRE', key, seconds)
    ttl = 1000 * seconds
  end
  if consumed > tonumber(ARGV[i * 2 + 1]) then admitted = 0 end
  counted[i * 2 - 1] = consumed
  counted[i * 2] = ttl
end
if admitted == 0 or #KEYS == windows then return counted end
local at = windows * 2 + 2
local cost = tonumber(ARGV[at])
local used = {}
for q = 1, #KEYS - windows do
  used[q] = tonumber(redis.call('GET', KEYS[windows + q]) or '0')
  if used[q] + cost > tonumber(ARGV[at + q * 2 - 1]) then admitted = 0 end
end
if admitted == 1 then
  for q = 1, #KEYS - windows do
    used[q] = redis.call('INCRBY', KEYS[windows + q], cost)
    if used[q] == cost then redis.call('PEXPIRE', KEYS[windows + q], ARGV[at + q * 2]) end
  end
end
counted[#counted + 1] = admitted
for q = 1, #used do counted[#counted + 1] = used[q] end
return counted
`;

/** How long past its period's end a quota's key is kept: instances whose clocks differ a little still find it. */
const KEEP_PAST_END_MS = 3_600_000;

type CountCommand = (numberOfKeys: number, ...keysAndArguments: (string | number)[]) => Promise<number[]>;

/**
 * Keys whose window is spent, until the window ends, as rate-limiter-flexible's
 * `inMemoryBlockOnConsumed` keeps them: ended ones are swept once there are a thousand.
 */
class SpentWindows {
  private readonly endsAt = new Map<string, number>();

  add(key: string, ms: number, now: number): void {
    this.endsAt.set(key, now + ms);
    if (this.endsAt.size > 999) for (const [each, end] of this.endsAt) if (end <= now) this.endsAt.delete(each);
  }

  /** 0 when the key's window is not known to be spent. */
  msBeforeEnd(key: string, now: number): number {
    const end = this.endsAt.get(key);
    return end !== undefined && end >= now ? end - now : 0;
  }
}

/**
 * Counts in Redis, shared by every instance: one script a request (`COUNT_SCRIPT`), under the
 * keys rate-limiter-flexible and the quota counter used before (`<prefix><namespace>:<key>`,
 * `<prefix><quota key>`), so that the counts carry over.
 *
 * This process's memory is the insurance that counts (its own requests only) while Redis does
 * not answer, and hands back as soon as it does again; a command is sent only to a connection
 * that is ready, so that an outage costs a request nothing but the switch.
 *
 * Once a key has spent its window, it is refused from this process's memory until the window
 * ends: a client over its limit costs Redis nothing more. A request refused so spends no quota,
 * as none that a window refuses does; its other windows still count it.
 */
export function redisRequestCounter(redis: Redis, keyPrefix: string): RequestCounter {
  const insurance = new MemoryRequestCounter();
  const spent = new SpentWindows();
  redis.defineCommand('utilityApiCountRequest', { lua: COUNT_SCRIPT });
  const send = (redis as unknown as { utilityApiCountRequest: CountCommand }).utilityApiCountRequest.bind(redis);

  return {
    count(windows, keys, quotas) {
      const now = Date.now();
      // Filled only when a window is spent here, which is rare: most requests go to Redis whole.
      let known: (Count | undefined)[] | undefined;
      const asked: RequestWindow[] = [];
      const askedKeys: string[] = [];
      const redisKeys: string[] = [];
      for (let i = 0; i < windows.length; i++) {
        const window = windows[i]!;
        const redisKey = `${keyPrefix}${window.namespace}:${keys[i]!}`;
        const ms = spent.msBeforeEnd(redisKey, now);
        if (ms > 0) {
          known ??= new Array<Count | undefined>(windows.length);
          known[i] = { admitted: false, remaining: 0, msBeforeNext: ms };
        } else {
          asked.push(window);
          askedKeys.push(keys[i]!);
          redisKeys.push(redisKey);
        }
      }
      // A request a window refuses spends no quota.
      const charged = known === undefined ? quotas : undefined;
      if (asked.length === 0 && charged === undefined) return together(known, NOTHING_COUNTED);
      const inMemory = (): RequestCount => together(known, insurance.count(asked, askedKeys, charged));
      if (redis.status !== 'ready') return inMemory();

      const keysAndArguments: (string | number)[] = [...redisKeys];
      if (charged !== undefined) for (const { key } of charged.charges) keysAndArguments.push(`${keyPrefix}${key}`);
      const numberOfKeys = keysAndArguments.length;
      keysAndArguments.push(asked.length);
      for (const { durationSeconds, points } of asked) keysAndArguments.push(durationSeconds, points);
      if (charged !== undefined) {
        keysAndArguments.push(charged.cost);
        for (const { limit, endsAt } of charged.charges)
          keysAndArguments.push(limit, Math.max(endsAt - charged.now, 0) + KEEP_PAST_END_MS);
      }
      return send(numberOfKeys, ...keysAndArguments).then((reply) => {
        const counts: Count[] = [];
        const answeredAt = Date.now();
        for (let i = 0; i < asked.length; i++) {
          const { points } = asked[i]!;
          const consumed = reply[i * 2]!;
          const msBeforeNext = reply[i * 2 + 1]!;
          if (consumed >= points) spent.add(redisKeys[i]!, msBeforeNext, answeredAt);
          counts.push({ admitted: consumed <= points, remaining: Math.max(points - consumed, 0), msBeforeNext });
        }
        const spend =
          reply.length > asked.length * 2
            ? { admitted: reply[asked.length * 2] === 1, used: reply.slice(asked.length * 2 + 1) }
            : undefined;
        return together(known, { windows: counts, quotas: spend });
      }, inMemory);
    },
  };
}

const NOTHING_COUNTED: RequestCount = { windows: [], quotas: undefined };

/** The counts of the windows spent here (`known`) with those counted after, in the windows' order. */
function together(known: (Count | undefined)[] | undefined, counted: RequestCount): RequestCount {
  if (known === undefined) return counted;
  const windows: Count[] = [];
  let next = 0;
  for (const count of known) windows.push(count ?? counted.windows[next++]!);
  return { windows, quotas: counted.quotas };
}
