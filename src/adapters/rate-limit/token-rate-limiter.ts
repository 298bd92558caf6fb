import type { Logger } from 'pino';
import type { Actor } from '../../domain/auth/actor.js';
import type { RateLimiter, RateLimitPolicy, RateLimitStanding } from '../../domain/pipeline/ports.js';
import type { RateLimit } from '../../domain/tokens/rate-limit.js';
import type { Count, Counters, RequestWindow } from './counters.js';

/** The policy names the RateLimit fields announce. */
export const DEFAULT_POLICY = 'default';
export const OWN_POLICY = 'token';

interface Window {
  readonly policy: RateLimitPolicy;
  readonly counter: RequestWindow;
}

/** Whom a request is counted against, and the limit of its own if it has one. */
function subjectOf(actor: Actor): { key: string; own: RateLimit | null } | undefined {
  switch (actor.kind) {
    case 'principal':
      return { key: `token:${actor.principal.token.id}`, own: actor.principal.token.rateLimit };
    case 'password':
      return { key: `user:${actor.user.id}`, own: null };
    case 'operator':
      return undefined;
  }
}

const wholeSeconds = (ms: number): number => Math.max(Math.ceil(ms / 1000), 0);

/**
 * Requests per token, across every operation, in fixed windows: a token's own limit when it was
 * given one, else the installation's default policy (none: such tokens are not counted). A user
 * who asks with a password is counted as themself under the default policy.
 *
 * One counter for the default policy, made at once, and one per distinct limit of tokens' own,
 * made on first use; each request is one `consume`, which in memory is a value and for Redis one
 * round trip.
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
  ) {
    this.defaultWindow = defaultLimit === null ? null : this.newWindow(DEFAULT_POLICY, defaultLimit);
  }

  admit(_operation: string, actor: Actor, _clientAddress?: string): RateLimitStanding | undefined | Promise<RateLimitStanding | undefined> {
    const subject = subjectOf(actor);
    if (subject === undefined) return undefined;
    const window = subject.own === null ? this.defaultWindow : this.ownWindow(subject.own);
    if (window === null) return undefined;
    const { policy, counter } = window;
    const counted = counter.consume(subject.key);
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
      window = this.newWindow(OWN_POLICY, limit);
      this.ownWindows.set(id, window);
    }
    return window;
  }

  private newWindow(name: string, { requests, perSeconds }: RateLimit): Window {
    return { policy: { name, requests, perSeconds }, counter: this.counters.requestWindow(`rate:${requests}/${perSeconds}`, requests, perSeconds) };
  }

  /**
   * Neither the store nor its insurance could count: the request goes through uncounted rather
   * than fail, and the log says so at most once a minute.
   */
  private uncounted(failure: unknown): undefined {
    const now = Date.now();
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
