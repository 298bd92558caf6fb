import type * as t from 'io-ts';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/ports.js';
import type { OutboundGuard } from './outbound-guard.js';
import type { UpstreamCallSettings } from '../config/codecs.js';

/**
 * What asking an upstream gives: its answer (`stale` when an expired one was served because the
 * upstream could not be asked), "it does not know that", or why there is nothing usable.
 */
export type UpstreamResult<A> =
  | { readonly kind: 'found'; readonly value: A; readonly freshness: 'fresh' | 'stale' }
  | { readonly kind: 'not-found' }
  /** Unreachable, answered 5xx or something unusable, or we are backing off after its 429. */
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'timeout' }
  /** It refused the question itself (a 4xx other than 404 and 429), saying why when the call knows where it does. */
  | { readonly kind: 'rejected'; readonly status: number; readonly reason?: string };

/** One upstream's settings; each family reads them from its own part of the configuration. */
export interface UpstreamSettings {
  /** Names the upstream in log lines: `hive`, `open-meteo`, ... */
  readonly name: string;
  readonly baseUrl: string;
  /** Every call has this deadline, body included. */
  readonly deadlineMs: number;
  /** How many answers (and remembered failures) are kept at most. */
  readonly maxEntries: number;
  /** How long to leave the upstream alone after its 429 when it gives no Retry-After. */
  readonly defaultBackoffMs: number;
  /** How long a failure with nothing cached is remembered: a dead upstream costs one deadline, not one per request. */
  readonly failureTtlMs: number;
  /** How long the upstream's host name stays resolved (with the default fetch). */
  readonly hostTtlMs: number;
}

/** How one call to an upstream ended, as the metrics count it. */
export type UpstreamCallOutcome =
  | 'ok'
  | 'not_modified'
  | 'not_found'
  | 'rate_limited'
  | 'rejected'
  | 'server_error'
  | 'unusable'
  | 'unreachable'
  | 'timeout';

/** Told of every call made to an upstream (not of answers served from the cache), by upstream and outcome. */
export type UpstreamCallCounter = (upstream: string, outcome: UpstreamCallOutcome) => void;

export interface UpstreamDependencies {
  readonly logger: Logger;
  readonly countCall?: UpstreamCallCounter;
  /** Unless given, a fetch that resolves the upstream's host once per `hostTtlMs`. */
  readonly fetch?: typeof globalThis.fetch;
  /** For an upstream an answer named (not the operator): its default fetch connects only where the guard allows. */
  readonly guard?: OutboundGuard;
  readonly clock?: Clock;
}

export interface UpstreamCall<A> {
  /** How long an answer to this path stays fresh. */
  readonly ttlMs: number;
  /** Turns the upstream's JSON into our value, or says why it cannot. */
  readonly decoder: t.Decoder<unknown, A>;
  /** The request this call serves, so that its failure can be found in the logs. */
  readonly requestId?: string;
  /** Where the upstream's refusal of a question (its 4xx body's JSON) says why, for a caller to pass that on. */
  readonly rejectionReason?: (body: unknown) => string | undefined;
  /**
   * Which redirects are followed (`MAX_REDIRECTS` at most); one it refuses fails the call as
   * unreachable. Unless given, fetch follows every redirect itself.
   */
  readonly followsRedirect?: (to: URL, from: URL) => boolean;
}

/** An upstream family's settings (`timeoutMs`, `backoffMs`, ...) as the upstream client names them. */
export const upstreamTimingOf = ({ timeoutMs, backoffMs, failureTtlMs, hostTtlMs }: UpstreamCallSettings) => ({
  deadlineMs: timeoutMs,
  defaultBackoffMs: backoffMs,
  failureTtlMs,
  hostTtlMs,
});
