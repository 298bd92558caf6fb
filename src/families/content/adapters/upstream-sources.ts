import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { Logger } from 'pino';
import type { CallContext } from '../../../domain/call-context.js';
import { checkText } from '../domain/content.js';
import type { ContentSource, SourceResult } from '../domain/ports.js';
import type { Clock } from '../../../domain/ports.js';
import { UpstreamClient } from '../../../platform/upstream/upstream-client.js';
import type { UpstreamCallCounter, UpstreamSettings } from '../../../platform/upstream/upstream-call.js';

/** A text that our rules for every entry accept (1 to 1000 characters, no control characters, none XML cannot carry), trimmed. */
const AcceptedText = new t.Type<string, string, unknown>(
  'a fact or quote of 1 to 1000 characters',
  (u): u is string => typeof u === 'string' && E.isRight(checkText(u)),
  (u, context) => {
    const checked = checkText(u);
    return E.isRight(checked) ? t.success(checked.right) : t.failure(u, context);
  },
  t.identity,
);

/** The text found in an upstream's answer by `read`, if our rules accept it. */
const textIn = (name: string, read: (answer: unknown) => unknown): t.Decoder<unknown, string> =>
  new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string',
    (answer, context) => AcceptedText.validate(read(answer), context),
    t.identity,
  );

const field = (answer: unknown, name: string): unknown =>
  typeof answer === 'object' && answer !== null && !Array.isArray(answer)
    ? (answer as Record<string, unknown>)[name]
    : undefined;

/** chucknorris.io's `/jokes/random`: `{value, ...}`. */
const ChuckNorrisJoke = textIn('a chucknorris.io joke', (answer) => field(answer, 'value'));
/** kanye.rest's `/`: `{quote}`. */
const KanyeQuote = textIn('a kanye.rest quote', (answer) => field(answer, 'quote'));
/** ron-swanson-quotes' `/v2/quotes`: an array of one quote. */
const RonSwansonQuote = textIn('a Ron Swanson quote', (answer) =>
  Array.isArray(answer) && answer.length === 1 ? answer[0] : undefined,
);

/** The upstreams of facts and quotes, each at the path that answers one random text. */
export const UPSTREAMS = {
  chucknorris: { path: '/jokes/random', decoder: ChuckNorrisJoke },
  kanye: { path: '/', decoder: KanyeQuote },
  ronswanson: { path: '/v2/quotes', decoder: RonSwansonQuote },
} as const;
export type UpstreamName = keyof typeof UPSTREAMS;

/** A source turned off by its setting: every ask is answered from the store. */
export const OFF_SOURCE: ContentSource = { next: async () => ({ kind: 'off' }) };

export interface UpstreamSourceDependencies {
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly fetch?: typeof globalThis.fetch;
  readonly countCall?: UpstreamCallCounter;
}

/**
 * One random text from an upstream per ask. Its answers are never reused (a TTL of 0), since each
 * ask wants a new text, but what the shared client does besides still holds: concurrent asks share
 * one call, a failure is remembered for `failureTtlMs` (or the back-off after an answer), and a 429
 * makes it back off. An answer the client serves as stale, its last one kept from before a failure,
 * counts as a failure here: the store then picks among every text ever received instead.
 */
export class UpstreamContentSource implements ContentSource {
  private readonly client: UpstreamClient;

  constructor(
    private readonly upstream: UpstreamName,
    settings: Omit<UpstreamSettings, 'name' | 'maxEntries'>,
    dependencies: UpstreamSourceDependencies,
  ) {
    // One path per upstream: one entry is all the client needs to remember.
    this.client = new UpstreamClient({ ...settings, name: upstream, maxEntries: 1 }, dependencies);
  }

  async next(context: CallContext = {}): Promise<SourceResult> {
    const { path, decoder } = UPSTREAMS[this.upstream];
    const result = await this.client.get(path, { ttlMs: 0, decoder, requestId: context.requestId });
    switch (result.kind) {
      case 'found':
        return result.freshness === 'fresh'
          ? { kind: 'received', text: result.value }
          : { kind: 'unavailable', reason: 'failure' };
      case 'timeout':
        return { kind: 'unavailable', reason: 'timeout' };
      case 'not-found':
      case 'unavailable':
      case 'rejected':
        return { kind: 'unavailable', reason: 'failure' };
    }
  }
}
