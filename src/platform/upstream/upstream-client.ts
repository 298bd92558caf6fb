import * as E from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/ports.js';
import { strictlyDecoded } from '../../domain/text.js';
import { LruCache } from '../caching/lru-cache.js';
import { lookupFetch } from './lookup-fetch.js';
import { cachingHostLookup } from './host-lookup.js';
import { SystemClock } from '../clock/system-clock.js';
import type {
  UpstreamCall,
  UpstreamCallCounter,
  UpstreamCallOutcome,
  UpstreamDependencies,
  UpstreamResult,
  UpstreamSettings,
} from './upstream-call.js';

type Failure = Extract<UpstreamResult<never>, { kind: 'unavailable' | 'timeout' | 'rejected' }>;

type Answer<A> = { readonly kind: 'found'; readonly value: A } | { readonly kind: 'not-found' };

/**
 * What is known of one path: the last answer, if any, and the last failure while it lasts. While
 * a failure lasts the upstream is not asked again: the stale answer is served, or with none the
 * failure, so that a dead upstream costs one deadline, not one per request.
 */
interface Entry<A> {
  readonly answer?: Answer<A>;
  readonly etag?: string;
  readonly fetchedAt: number;
  readonly failed?: { readonly failure: Failure; readonly until: number };
}

/** Why a call failed, for the one log line, and what the caller is told. */
interface Refusal {
  readonly failure: Failure;
  readonly reason: string;
}

const MAX_BODY_CHARS = 4_000_000;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_RETRY_AFTER_SECONDS = 600;
const systemClock: Clock = new SystemClock();

/**
 * A JSON upstream behind a cache: answers are kept for their TTL, identical concurrent asks
 * share one call, expired answers are revalidated with If-None-Match (a 304 costs the upstream
 * nothing), and when the upstream is down, slow or rate-limiting us, an expired answer is served
 * as stale rather than failing. With nothing to serve, the failure itself is remembered for a
 * moment. The upstream's 429 makes us back off; it never reaches our callers.
 *
 * Entries live in LruCache (lru-cache). The in-flight map stays, measured (issue 25, bench/caches.ts): lru-cache's
 * fetch hits in 149 ns against 264 here, but keeps one TTL an entry; fresh here is by the caller's TTL and a failure's.
 */
const USER_AGENT = 'utility-api';

export class UpstreamClient {
  private readonly cache: LruCache<string, Entry<unknown>>;
  private readonly inFlight = new Map<string, Promise<UpstreamResult<unknown>>>();
  private backoffUntil = 0;
  private readonly settings: UpstreamSettings;
  private readonly fetch: typeof globalThis.fetch;
  private readonly loadFetch: () => void;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly countCall: UpstreamCallCounter;

  constructor(settings: UpstreamSettings, dependencies: UpstreamDependencies) {
    // Paths start with `/`: a base URL written with a trailing one would double it.
    this.settings = { ...settings, baseUrl: settings.baseUrl.replace(/\/+$/, '') };
    this.clock = dependencies.clock ?? systemClock;
    const { fetch, load } = dependencies.fetch
      ? { fetch: dependencies.fetch, load: () => {} }
      : lookupFetch(cachingHostLookup({ ttlMs: settings.hostTtlMs, clock: this.clock }), dependencies.guard);
    this.fetch = fetch;
    this.loadFetch = load;
    this.logger = dependencies.logger;
    this.countCall = dependencies.countCall ?? (() => {});
    this.cache = new LruCache(settings.maxEntries);
  }

  get<A>(path: string, call: UpstreamCall<A>): Promise<UpstreamResult<A>> {
    const now = this.clock.now();
    const cached = this.cache.get(path) as Entry<A> | undefined;
    if (cached?.answer && now - cached.fetchedAt < call.ttlMs) return Promise.resolve(fresh(cached.answer));
    // The upstream failed moments ago: do not make every caller wait for its deadline again.
    if (cached?.failed && now < cached.failed.until)
      return Promise.resolve(cached.answer ? served(cached.answer) : cached.failed.failure);
    // Joiners share the first asker's call, and so its request id in a failure's log line.
    const pending = this.inFlight.get(path) as Promise<UpstreamResult<A>> | undefined;
    if (pending) return pending;
    const refreshing = this.refresh(path, cached, call).finally(() => this.inFlight.delete(path));
    this.inFlight.set(path, refreshing);
    return refreshing;
  }

  private async refresh<A>(
    path: string,
    cached: Entry<A> | undefined,
    call: UpstreamCall<A>,
  ): Promise<UpstreamResult<A>> {
    const outcome = await this.ask(path, cached, call);
    if (E.isRight(outcome)) {
      const { answer, etag } = outcome.right;
      this.cache.set(path, { answer, etag, fetchedAt: this.clock.now() });
      return fresh(answer);
    }
    const { failure, reason } = outcome.left;
    // One line, no stack: which upstream, why, and for which of our requests.
    this.logger.warn({ upstream: this.settings.name, reason, requestId: call.requestId }, 'upstream call failed');
    // With an answer to serve meanwhile, the upstream is given the whole back-off to recover;
    // with none, callers get the failure, so it is asked again sooner.
    const leaveAloneMs = cached?.answer ? this.settings.defaultBackoffMs : this.settings.failureTtlMs;
    this.cache.set(path, {
      ...cached,
      fetchedAt: cached?.fetchedAt ?? 0,
      failed: { failure, until: this.clock.now() + leaveAloneMs },
    });
    return cached?.answer ? served(cached.answer) : failure;
  }

  /** One call to the upstream: the answer to keep, or why there is none. Never throws. */
  private async ask<A>(
    path: string,
    cached: Entry<A> | undefined,
    call: UpstreamCall<A>,
  ): Promise<E.Either<Refusal, { answer: Answer<A>; etag: string | undefined }>> {
    const unavailable = (reason: string): E.Either<Refusal, never> =>
      E.left({ failure: { kind: 'unavailable' }, reason });
    const waitMs = this.backoffUntil - this.clock.now();
    if (waitMs > 0) return unavailable(`backing off for ${waitMs} ms after its 429`);
    const outcome = await this.call(path, cached, call);
    this.countCall(this.settings.name, outcome.counted);
    return outcome.result;
  }

  /** The call itself, and how it ended for the count. */
  private async call<A>(
    path: string,
    cached: Entry<A> | undefined,
    { decoder, rejectionReason, followsRedirect }: UpstreamCall<A>,
  ): Promise<{
    counted: UpstreamCallOutcome;
    result: E.Either<Refusal, { answer: Answer<A>; etag: string | undefined }>;
  }> {
    const unavailable = (counted: UpstreamCallOutcome, reason: string) => ({
      counted,
      result: E.left<Refusal>({ failure: { kind: 'unavailable' }, reason }),
    });

    let response: Response;
    let body: string | undefined;
    this.loadFetch();
    const deadline = AbortSignal.timeout(this.settings.deadlineMs);
    try {
      let url = this.settings.baseUrl + path;
      for (let redirects = 0; ; redirects++) {
        response = await this.fetch(url, {
          headers: {
            accept: 'application/json',
            // Some upstreams refuse a library's stock agent and ask to be told which program calls (Nominatim's usage policy).
            'user-agent': USER_AGENT,
            ...(cached?.answer && cached.etag && { 'if-none-match': cached.etag }),
          },
          signal: deadline,
          redirect: followsRedirect ? 'manual' : 'follow',
        });
        if (!followsRedirect || !REDIRECT_STATUSES.has(response.status)) break;
        await response.body?.cancel();
        const location = response.headers.get('location');
        const next = location !== null && URL.canParse(location, url) ? new URL(location, url) : undefined;
        if (next === undefined || !/^https?:$/.test(next.protocol))
          return unavailable('unusable', `answered ${response.status} without an http(s) Location`);
        if (redirects === MAX_REDIRECTS) return unavailable('unusable', `redirected more than ${MAX_REDIRECTS} times`);
        // The log names where, never what answers there.
        if (!followsRedirect(next, new URL(url)))
          return unavailable('unreachable', `redirected to ${next.origin}, which is not followed`);
        url = next.href;
      }
      if (Number(response.headers.get('content-length') ?? 0) > MAX_BODY_CHARS) {
        await response.body?.cancel();
        return unavailable('unusable', 'answer too large');
      }
      // As bytes: text() would turn bytes that are not UTF-8 into U+FFFD, an answer quietly changed.
      body = strictlyDecoded(new Uint8Array(await response.arrayBuffer()));
    } catch (error) {
      if (deadline.aborted)
        return {
          counted: 'timeout',
          result: E.left({ failure: { kind: 'timeout' }, reason: `no answer within ${this.settings.deadlineMs} ms` }),
        };
      return unavailable('unreachable', `unreachable: ${causeOf(error)}`);
    }

    if (response.status === 304 && cached?.answer)
      return { counted: 'not_modified', result: E.right({ answer: cached.answer, etag: cached.etag }) };
    if (response.status === 404)
      return { counted: 'not_found', result: E.right({ answer: { kind: 'not-found' }, etag: undefined }) };
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      const backoffMs =
        Number.isFinite(retryAfter) && retryAfter > 0
          ? Math.min(retryAfter, MAX_RETRY_AFTER_SECONDS) * 1000
          : this.settings.defaultBackoffMs;
      this.backoffUntil = this.clock.now() + backoffMs;
      return unavailable('rate_limited', `answered 429: backing off for ${backoffMs} ms`);
    }
    if (response.status >= 400 && response.status < 500) {
      const json = rejectionReason && body !== undefined && parseJson(body);
      const why = json && E.isRight(json) ? rejectionReason(json.right) : undefined;
      const failure: Failure =
        why === undefined
          ? { kind: 'rejected', status: response.status }
          : { kind: 'rejected', status: response.status, reason: why };
      return { counted: 'rejected', result: E.left({ failure, reason: `answered ${response.status}` }) };
    }
    if (response.status !== 200) return unavailable('server_error', `answered ${response.status}`);
    if (body === undefined) return unavailable('unusable', 'answered bytes that are not UTF-8');
    if (body.length > MAX_BODY_CHARS) return unavailable('unusable', 'answer too large');

    const decoded = E.chain((json: unknown) =>
      E.mapLeft(() => 'answered JSON of the wrong shape')(decoder.decode(json)),
    )(parseJson(body));
    if (E.isLeft(decoded)) return unavailable('unusable', decoded.left);
    return {
      counted: 'ok',
      result: E.right({
        answer: { kind: 'found', value: decoded.right },
        etag: response.headers.get('etag') ?? undefined,
      }),
    };
  }
}

function parseJson(body: string): E.Either<string, unknown> {
  return E.tryCatch(
    () => JSON.parse(body) as unknown,
    () => 'answered something that is not JSON',
  );
}

/** The system's reason (ECONNREFUSED, ENOTFOUND, "other side closed") rather than fetch's "fetch failed". */
function causeOf(error: unknown): string {
  type Described = { code?: unknown; message?: unknown; cause?: Described } | undefined;
  const described = error as Described;
  const source = described?.cause ?? described;
  if (typeof source?.code === 'string' && /^E[A-Z]+$/.test(source.code)) return source.code;
  return typeof source?.message === 'string' ? source.message : String(error);
}

const stale = <A>(value: A): UpstreamResult<A> => ({ kind: 'found', value, freshness: 'stale' });
/** An answer kept from before a failure: stale if found (a not-found is as true as it was). */
const served = <A>(answer: Answer<A>): UpstreamResult<A> => (answer.kind === 'found' ? stale(answer.value) : answer);
const fresh = <A>(answer: Answer<A>): UpstreamResult<A> =>
  answer.kind === 'found' ? { kind: 'found', value: answer.value, freshness: 'fresh' } : answer;
