import type { Actor } from '../auth/actor.js';
import type { DomainError } from '../errors.js';

export type RateLimitRefusal = Extract<DomainError, { readonly _tag: 'RateLimited' }>;

/**
 * Decides whether an authenticated request may go on, counted against whom and what the adapter
 * chooses (a token, a user, a client address; per operation or across them). Undefined admits.
 * A refusal says in whole seconds, at least 1, when to come back.
 *
 * Never rejects: a limiter whose shared store is down decides from what it holds itself, since
 * an outage of the counters must not become an outage of the service.
 *
 * Called on every request: a verdict the adapter already knows is returned as a value, not a
 * promise, and the arguments are passed as they are so that admitting allocates nothing.
 */
export interface RateLimiter {
  /** `operation` is the route as `METHOD /path/pattern`; `clientAddress` the peer's address. */
  admit(operation: string, actor: Actor, clientAddress: string): RateLimitRefusal | undefined | Promise<RateLimitRefusal | undefined>;
}
export const RateLimiter = Symbol.for('RateLimiter');

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
export const Metrics = Symbol.for('Metrics');
