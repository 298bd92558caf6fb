import type { Logger } from 'pino';
import type { GameDataResult } from '../../domain/game/game-data.js';
import { LruCache } from '../caching/lru-cache.js';

type Answer<A> = { readonly kind: 'found'; readonly value: A } | { readonly kind: 'not-found' };

interface Entry<A> {
  readonly answer: Answer<A>;
  readonly etag: string | undefined;
  readonly fetchedAt: number;
  /** After a failed refresh, the stale answer is served at once until then. */
  retryAt?: number;
}

export interface UpstreamOptions {
  readonly baseUrl: string;
  /** Every call has this deadline, body included. */
  readonly timeoutMs: number;
  readonly maxEntries: number;
  /** How long to leave the upstream alone after its 429 when it gives no Retry-After. */
  readonly defaultBackoffMs: number;
  readonly logger: Logger;
  readonly now?: () => number;
}

const MAX_BODY_CHARS = 4_000_000;

/**
 * A JSON upstream behind a cache: answers are kept for their TTL, identical concurrent asks
 * share one call, expired answers are revalidated with If-None-Match (a 304 costs the upstream
 * nothing), and when the upstream is down, slow or rate-limiting us, an expired answer is served
 * as stale rather than failing. The upstream's 429 makes us back off; it never reaches our callers.
 */
export class CachedUpstream {
  private readonly cache: LruCache<string, Entry<unknown>>;
  private readonly inFlight = new Map<string, Promise<GameDataResult<unknown>>>();
  private backoffUntil = 0;
  private readonly now: () => number;

  constructor(private readonly options: UpstreamOptions) {
    this.now = options.now ?? Date.now;
    this.cache = new LruCache(options.maxEntries);
  }

  /** `decode` turns the upstream's JSON into our value, or throws when it is not usable. */
  get<A>(path: string, ttlMs: number, decode: (json: unknown) => A): Promise<GameDataResult<A>> {
    const cached = this.cache.get(path) as Entry<A> | undefined;
    if (cached && this.now() - cached.fetchedAt < ttlMs) return Promise.resolve(fresh(cached.answer));
    // The upstream failed moments ago: do not make every caller wait for its deadline again.
    if (cached?.answer.kind === 'found' && this.now() < (cached.retryAt ?? 0)) return Promise.resolve({ kind: 'found', value: cached.answer.value, stale: true });
    const pending = this.inFlight.get(path) as Promise<GameDataResult<A>> | undefined;
    if (pending) return pending;
    const call = this.refresh(path, cached, decode).finally(() => this.inFlight.delete(path));
    this.inFlight.set(path, call);
    return call;
  }

  private async refresh<A>(path: string, cached: Entry<A> | undefined, decode: (json: unknown) => A): Promise<GameDataResult<A>> {
    const fallback = (reason: 'timeout' | 'failure'): GameDataResult<A> => {
      if (!cached) return { kind: 'unavailable', reason };
      cached.retryAt = this.now() + this.options.defaultBackoffMs;
      return cached.answer.kind === 'found' ? { kind: 'found', value: cached.answer.value, stale: true } : fresh(cached.answer);
    };
    if (this.now() < this.backoffUntil) return fallback('failure');

    let response: Response;
    let body: string;
    try {
      response = await fetch(this.options.baseUrl + path, {
        headers: { accept: 'application/json', ...(cached?.etag && { 'if-none-match': cached.etag }) },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (Number(response.headers.get('content-length') ?? 0) > MAX_BODY_CHARS) throw new Error('answer too large');
      body = await response.text();
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      this.options.logger.warn({ path, err: error }, timedOut ? 'game network timed out' : 'game network unreachable');
      return fallback(timedOut ? 'timeout' : 'failure');
    }

    if (response.status === 304 && cached) return this.store(path, cached.answer, cached.etag);
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      const waitMs = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 600) * 1000 : this.options.defaultBackoffMs;
      this.backoffUntil = this.now() + waitMs;
      this.options.logger.warn({ path, waitMs }, 'game network rate-limits us: backing off');
      return fallback('failure');
    }
    if (response.status === 404) return this.store(path, { kind: 'not-found' }, undefined);
    if (response.status !== 200 || body.length > MAX_BODY_CHARS) {
      this.options.logger.warn({ path, status: response.status }, 'game network answered with an error');
      return fallback('failure');
    }
    let value: A;
    try {
      value = decode(JSON.parse(body));
    } catch (error) {
      this.options.logger.warn({ path, err: error }, 'game network answered something unusable');
      return fallback('failure');
    }
    return this.store(path, { kind: 'found', value }, response.headers.get('etag') ?? undefined);
  }

  private store<A>(path: string, answer: Answer<A>, etag: string | undefined): GameDataResult<A> {
    this.cache.set(path, { answer, etag, fetchedAt: this.now() });
    return fresh(answer);
  }
}

const fresh = <A>(answer: Answer<A>): GameDataResult<A> => (answer.kind === 'found' ? { kind: 'found', value: answer.value, stale: false } : answer);
