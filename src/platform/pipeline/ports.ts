import type { RequestOrigin } from '../../domain/audit.js';
import { identifier } from '../../domain/identifier.js';
import type { Either } from 'fp-ts/lib/Either.js';
import type { Principal } from '../../domain/identity/principal.js';
import type { Actor } from '../../domain/identity/actor.js';
import type { DomainError } from '../../domain/errors.js';

export type RateLimitRefusal = Extract<DomainError, { readonly _tag: 'RateLimited' | 'QuotaExceeded' }>;

/** The policy a request was counted under, as announced to its client. */
export interface RateLimitPolicy {
  /** Names it in the announcement: the installation's `default`, or a token's own. */
  readonly name: string;
  readonly requests: number;
  readonly perSeconds: number;
}

/** Where a counted request leaves its caller in the current window, and the refusal when nothing was left. */
export interface RateLimitStanding {
  readonly policy: RateLimitPolicy;
  /** Requests still allowed in the current window. */
  readonly remaining: number;
  /** Whole seconds until the window ends and the count starts again. */
  readonly resetSeconds: number;
  /** Present when this request is refused: it says in whole seconds, at least 1, when to come back. */
  readonly refusal?: RateLimitRefusal;
  /** A second policy the request was counted under (a quota beside the rate limit), announced after this one. */
  readonly also?: RateLimitStanding;
}

/**
 * Counts an authenticated request against whom and what the adapter chooses (a token, a user, a
 * client address; per operation or across them) and says where that leaves the caller, refused
 * or not. Undefined: the request is counted under no policy at all.
 *
 * Never rejects: a limiter whose shared store is down decides from what it holds itself, since
 * an outage of the counters must not become an outage of the service.
 *
 * Called on every request: a verdict the adapter already knows is returned as a value, not a
 * promise, and the arguments are passed as they are.
 */
export interface RateLimiter {
  /** `operation` is the route as `METHOD /path/pattern`; `clientAddress` the peer's address. */
  admit(
    operation: string,
    actor: Actor,
    clientAddress: string,
  ): RateLimitStanding | undefined | Promise<RateLimitStanding | undefined>;
}
export const RateLimiter = identifier<RateLimiter>('RateLimiter');

/**
 * Where each answered request is counted and timed (Prometheus, StatsD, a log): once per
 * request, after the answer is decided. Called on every request, so it must return at once and
 * never throw; an adapter that ships numbers elsewhere buffers them and sends them in the
 * background.
 */
export interface Metrics {
  /**
   * `operation` is the route as `METHOD /path/pattern`, or `UNMATCHED_OPERATION` for a request no
   * route answers (a bounded set of names, fit for a label); `status` is the answer's status code.
   */
  observe(operation: string, status: number, milliseconds: number): void;
}
export const Metrics = identifier<Metrics>('Metrics');

/**
 * Told of every answered request a token was let in on (authenticated, whatever the answer
 * after: a refusal by the rate limit or of bad input counts too), with the token's principal:
 * per-token usage history listens here. Called on every such request, after `Metrics`: it must
 * return at once and never throw.
 */
export interface TokenRequestObserver {
  /** `operation` as `Metrics` names it; `status` the answer's status code. */
  observe(principal: Principal, operation: string, status: number): void;
}
export const TokenRequestObserver = identifier<TokenRequestObserver>('TokenRequestObserver');

/**
 * The hook for whoever keeps a mail outbox: how many messages it holds by status (`queued`,
 * `sending`, `sent`, `failed`, ...), read at each metrics scrape for the `mail_outbox_messages`
 * gauge. Bind one under this identifier and the gauge appears; with none bound it is absent.
 */
export interface MailOutboxDepth {
  byStatus(): Promise<Readonly<Record<string, number>>>;
}
export const MailOutboxDepth = identifier<MailOutboxDepth>('MailOutboxDepth');

/**
 * The authenticate stage's view of bearer tokens: the principal a secret stands for, checked for
 * `permission` (null: any valid token will do), or why not. It may answer at once, without a
 * promise, for a secret verified moments ago.
 */
export interface TokenAuthentication {
  execute(
    secret: string | undefined,
    permission: string | null,
  ): Either<DomainError, Principal> | Promise<Either<DomainError, Principal>>;
}

/** The authenticate stage's view of a password login, on the routes that take one. */
export interface PasswordAuthentication {
  execute(attempt: {
    /** A username or an email address, in any case. */
    readonly login: string;
    readonly password: string;
    /** Where the attempt came from, for the per-client throttle. */
    readonly clientAddress: string;
    /** Where the request came from, for the audit trail. */
    readonly origin?: RequestOrigin;
  }): Promise<Either<DomainError, Actor>>;
}
