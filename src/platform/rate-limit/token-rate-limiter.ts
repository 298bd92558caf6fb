import type { Logger } from 'pino';
import type { Actor } from '../../domain/identity/actor.js';
import type { Clock } from '../../domain/ports.js';
import { SystemClock } from '../clock/system-clock.js';
import type { RateLimiter, RateLimitPolicy, RateLimitStanding } from '../pipeline/ports.js';
import { withinRateLimit, type RateLimit } from '../../domain/identity/rate-limit.js';
import type { Counters } from './counters.js';
import type { QuotasDue, Quotas, QuotaThreshold } from './quotas.js';
import type { Count, RequestCount, RequestCounter, RequestWindow } from './request-counter.js';

/** The policy names the RateLimit fields announce. */
export const DEFAULT_POLICY = 'default';
export const OWN_POLICY = 'token';

/** A limit as announced, and the windows a request under it is counted in (in the order of `policies`). */
interface Windows {
  readonly policies: readonly RateLimitPolicy[];
  readonly windows: readonly RequestWindow[];
}

const NO_WINDOWS: Windows = { policies: [], windows: [] };

type Standing = RateLimitStanding | undefined;

/** Of two standings of one request (the first undefined before there is one), the one to announce: a refusal, else the one with less left. */
function bothOf(own: Standing, user: Standing): Standing {
  if (own === undefined || user === undefined) return own ?? user;
  return own.refusal !== undefined ? own : user.refusal !== undefined || user.remaining < own.remaining ? user : own;
}

const wholeSeconds = (ms: number): number => Math.max(Math.ceil(ms / 1000), 0);

/**
 * Requests across every operation, in fixed windows. The installation's default policy counts per
 * user, whichever of their tokens (or their password) asks, so that minting tokens buys no more
 * requests; with it off, such requests are not counted. A token given a limit of its own is
 * counted under that limit alone, and, when that limit is within the default (as every limit a
 * user may give a token they mint is), under its user's default count as well.
 *
 * With `quotas`, a request of a token or user with a quota is counted against it too, in the same
 * step: a request is one `count` whatever it is counted against, which in memory is a value and
 * for Redis one round trip. The windows are made once: the default's at once, each distinct limit
 * of tokens' own on first use.
 */
export class TokenRateLimiter implements RateLimiter {
  /** Tokens' own limits by `requests/perSeconds`. */
  private readonly ownWindows = new Map<string, Windows>();
  private readonly defaultWindows: Windows;
  private readonly counter: RequestCounter;
  private lastFailureLogged = 0;

  constructor(
    counters: Counters,
    defaultLimit: RateLimit | null,
    private readonly logger: Logger,
    /** When a failure of the counters was last logged; the windows keep their own time (see request-counter.ts). */
    private readonly clock: Clock = new SystemClock(),
    private readonly quotas: Quotas | null = null,
    /** Told of every quota threshold a request passes; it must not wait on anything. */
    private readonly onThresholds: (thresholds: readonly QuotaThreshold[]) => void = () => {},
  ) {
    this.counter = counters.requestCounter();
    if (defaultLimit === null) this.defaultWindows = NO_WINDOWS;
    else {
      const policy = policyOf(DEFAULT_POLICY, defaultLimit);
      this.defaultWindows = { policies: [policy], windows: [windowOf(policy)] };
    }
  }

  admit(operation: string, actor: Actor, _clientAddress?: string): Standing | Promise<Standing> {
    if (actor.kind === 'operator') return undefined;
    const quotas = this.quotas?.due(operation, actor);
    if (actor.kind === 'password') return this.count(this.defaultWindows, [`user:${actor.user.id}`], quotas);
    const { token } = actor.principal;
    if (token.rateLimit === null) return this.count(this.defaultWindows, [`user:${token.userId}`], quotas);
    const own = this.ownWindowsOf(token.rateLimit);
    const keys = own.windows.length === 1 ? [`token:${token.id}`] : [`token:${token.id}`, `user:${token.userId}`];
    return this.count(own, keys, quotas);
  }

  private count(limit: Windows, keys: readonly string[], quotas: QuotasDue | undefined): Standing | Promise<Standing> {
    if (limit.windows.length === 0 && quotas === undefined) return undefined;
    const counted = this.counter.count(limit.windows, keys, quotas);
    if (!(counted instanceof Promise)) return this.standingOf(limit, counted, quotas);
    return counted.then(
      (count) => this.standingOf(limit, count, quotas),
      (failure: unknown) => this.uncounted(failure),
    );
  }

  /** Of the windows' standings, a refusal, else the one with least left; beside it the quotas' unless a window refused. */
  private standingOf({ policies }: Windows, counted: RequestCount, quotas: QuotasDue | undefined): Standing {
    let rate: Standing;
    for (let i = 0; i < policies.length; i++) rate = bothOf(rate, standingOf(policies[i]!, counted.windows[i]!));
    if (quotas === undefined || counted.quotas === undefined) return rate;
    const crossed = this.quotas!.crossed(quotas, counted.quotas);
    if (crossed.length > 0) this.onThresholds(crossed);
    return this.quotas!.beside(rate, quotas, counted.quotas);
  }

  private ownWindowsOf(limit: RateLimit): Windows {
    const id = `${limit.requests}/${limit.perSeconds}`;
    let own = this.ownWindows.get(id);
    if (own === undefined) {
      const policy = policyOf(OWN_POLICY, limit);
      const [defaultPolicy] = this.defaultWindows.policies;
      own =
        defaultPolicy !== undefined && withinRateLimit(limit, defaultPolicy)
          ? {
              policies: [policy, defaultPolicy],
              windows: [windowOf(policy), this.defaultWindows.windows[0]!],
            }
          : { policies: [policy], windows: [windowOf(policy)] };
      this.ownWindows.set(id, own);
    }
    return own;
  }

  /**
   * Neither the store nor its insurance could count: the request goes through uncounted rather
   * than fail, and the log says so at most once a minute.
   */
  private uncounted(failure: unknown): undefined {
    const now = this.clock.now();
    if (now - this.lastFailureLogged > 60_000) {
      this.lastFailureLogged = now;
      this.logger.error({ err: failure }, 'rate limit counters unavailable: requests pass uncounted');
    }
    return undefined;
  }
}

const policyOf = (name: string, { requests, perSeconds }: RateLimit): RateLimitPolicy => ({
  name,
  requests,
  perSeconds,
});

const windowOf = ({ requests, perSeconds }: RateLimitPolicy): RequestWindow => ({
  namespace: `rate:${requests}/${perSeconds}`,
  points: requests,
  durationSeconds: perSeconds,
});

function standingOf(policy: RateLimitPolicy, { admitted, remaining, msBeforeNext }: Count): RateLimitStanding {
  if (admitted) return { policy, remaining, resetSeconds: wholeSeconds(msBeforeNext) };
  const resetSeconds = Math.max(wholeSeconds(msBeforeNext), 1);
  return { policy, remaining: 0, resetSeconds, refusal: { _tag: 'RateLimited', retryAfterSeconds: resetSeconds } };
}
