import type { Logger } from 'pino';
import type { Actor } from '../../domain/identity/actor.js';
import type { Clock } from '../../domain/ports.js';
import { SystemClock } from '../clock/system-clock.js';
import type { RateLimiter, RateLimitPolicy, RateLimitStanding } from '../pipeline/ports.js';
import { withinRateLimit, type RateLimit } from '../../domain/identity/rate-limit.js';
import type { Count, Counters, RequestWindow } from './counters.js';

/** The policy names the RateLimit fields announce. */
export const DEFAULT_POLICY = 'default';
export const OWN_POLICY = 'token';

interface Window {
  readonly policy: RateLimitPolicy;
  readonly counter: RequestWindow;
  /** For a token's own limit: whether it is within the default, so that its user's count holds it too. */
  readonly withinDefault: boolean;
}

type Standing = RateLimitStanding | undefined;

/** Of a request's two standings (either uncounted when its counters failed), the one to announce: a refusal, else the one with less left. */
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
 * One counter for the default policy, made at once, and one per distinct limit of tokens' own,
 * made on first use; a request without a limit of its own is one `consume`, which in memory is a
 * value and for Redis one round trip.
 */
export class TokenRateLimiter implements RateLimiter {
  /** Tokens' own limits by `requests/perSeconds`. */
  private readonly ownWindows = new Map<string, Window>();
  private readonly defaultWindow: Window | null;
  private lastFailureLogged = 0;

  constructor(
    private readonly counters: Counters,
    defaultLimit: RateLimit | null,
    private readonly logger: Logger,
    /** When a failure of the counters was last logged; the windows keep their own time (see counters.ts). */
    private readonly clock: Clock = new SystemClock(),
  ) {
    this.defaultWindow = defaultLimit === null ? null : this.newWindow(DEFAULT_POLICY, defaultLimit);
  }

  admit(_operation: string, actor: Actor, _clientAddress?: string): Standing | Promise<Standing> {
    switch (actor.kind) {
      case 'operator':
        return undefined;
      case 'password':
        return this.countUser(actor.user.id);
      case 'principal': {
        const { token } = actor.principal;
        if (token.rateLimit === null) return this.countUser(token.userId);
        const own = this.ownWindow(token.rateLimit);
        const counted = this.count(own, `token:${token.id}`);
        if (!own.withinDefault) return counted;
        const user = this.countUser(token.userId);
        if (!(counted instanceof Promise) && !(user instanceof Promise)) return bothOf(counted, user);
        return Promise.all([counted, user]).then(([ownStanding, userStanding]) => bothOf(ownStanding, userStanding));
      }
    }
  }

  private countUser(userId: string): Standing | Promise<Standing> {
    return this.defaultWindow === null ? undefined : this.count(this.defaultWindow, `user:${userId}`);
  }

  private count({ policy, counter }: Window, key: string): Standing | Promise<Standing> {
    const counted = counter.consume(key);
    if (!(counted instanceof Promise)) return standingOf(policy, counted);
    return counted.then(
      (count) => standingOf(policy, count),
      (failure: unknown) => this.uncounted(failure),
    );
  }

  private ownWindow(limit: RateLimit): Window {
    const id = `${limit.requests}/${limit.perSeconds}`;
    let window = this.ownWindows.get(id);
    if (window === undefined) {
      window = this.newWindow(
        OWN_POLICY,
        limit,
        this.defaultWindow !== null && withinRateLimit(limit, this.defaultWindow.policy),
      );
      this.ownWindows.set(id, window);
    }
    return window;
  }

  private newWindow(name: string, { requests, perSeconds }: RateLimit, withinDefault = false): Window {
    return {
      policy: { name, requests, perSeconds },
      counter: this.counters.requestWindow(`rate:${requests}/${perSeconds}`, requests, perSeconds),
      withinDefault,
    };
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

function standingOf(policy: RateLimitPolicy, { admitted, remaining, msBeforeNext }: Count): RateLimitStanding {
  if (admitted) return { policy, remaining, resetSeconds: wholeSeconds(msBeforeNext) };
  const resetSeconds = Math.max(wholeSeconds(msBeforeNext), 1);
  return { policy, remaining: 0, resetSeconds, refusal: { _tag: 'RateLimited', retryAfterSeconds: resetSeconds } };
}
