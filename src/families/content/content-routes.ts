import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { ContentEntry } from './domain/content.js';
import type { LiveContent, Provenance, RandomContent } from './domain/content-queries.js';
import type { DomainError } from '../../domain/errors.js';
import { ContentPermission } from './domain/permissions.js';
import { oneOf } from '../../platform/http/codecs.js';
import { required } from '../../platform/http/fields.js';
import { chooseFormat, EVERY_FORMAT, formatParameter, rendered, type Format } from '../../platform/http/negotiation.js';
import { defineRoute, type ResponseBody, type Route } from '../../platform/http/route-table.js';

export interface ContentRouteDependencies {
  readonly random: RandomContent;
  readonly chuckNorris: LiveContent;
  readonly kanye: LiveContent;
  readonly ronSwanson: LiveContent;
}

const fact = t.strict({ id: t.string, fact: t.string, category: t.string, source: t.string });
type Fact = t.TypeOf<typeof fact>;
const quote = t.strict({
  id: t.string,
  quote: t.string,
  author: t.union([t.string, t.null]),
  category: t.string,
  source: t.string,
});
type Quote = t.TypeOf<typeof quote>;

const factOf = ({ id, text, category, source }: ContentEntry): Fact => ({ id, fact: text, category, source });
const quoteOf = ({ id, text, author, category, source }: ContentEntry): Quote => ({
  id,
  quote: text,
  author,
  category,
  source,
});

/** A fact in the format asked for; as text, the fact alone. */
const factIn = (format: Format, entry: ContentEntry, headers?: Readonly<Record<string, string>>): ResponseBody<Fact> =>
  rendered(factOf(entry), format, { root: 'fact', asText: (value) => value.fact, headers });
/** A quote in the format asked for; as text, the quote and, when known, its author after a dash. */
const quoteIn = (
  format: Format,
  entry: ContentEntry,
  headers?: Readonly<Record<string, string>>,
): ResponseBody<Quote> =>
  rendered(quoteOf(entry), format, {
    root: 'quote',
    asText: (value) => (value.author === null ? value.quote : `${value.quote} — ${value.author}`),
    headers,
  });

const query = { type: formatParameter };

const provenanceHeaders = {
  'x-cache': required(
    oneOf<Provenance>(['fresh', 'stale', 'stored'], 'fresh, stale or stored'),
    'fresh from the upstream now; stale from those kept because it failed; stored when it is turned off here',
  ),
};
const withProvenance = (provenance: Provenance): Readonly<Record<string, string>> => ({ 'X-Cache': provenance });

/** Nothing stored (404/22, or an upstream turned off with nothing stored); the upstream failing with nothing stored (502/29, 504/30). */
const liveErrors = ['InformationNotFound', 'UpstreamUnavailable', 'UpstreamTimeout'] as const;

type Outcome<A> = E.Either<DomainError, A>;

export function contentRoutes(deps: ContentRouteDependencies): Route[] {
  const stored =
    (kind: 'fact', category: string) =>
    async ({
      query: { type },
      accept,
    }: {
      query: { type: Format | undefined };
      accept: string | undefined;
    }): Promise<Outcome<ResponseBody<Fact>>> =>
      E.map((entry: ContentEntry) => factIn(chooseFormat(type, accept), entry))(
        await deps.random.ofCategory(kind, category),
      );
  return [
    defineRoute({
      method: 'GET',
      path: '/facts/cat',
      permission: ContentPermission.FactsCat,
      summary: 'A random cat fact (bundled, answered offline)',
      query,
      produces: EVERY_FORMAT,
      response: fact,
      errors: ['InformationNotFound'],
      handle: stored('fact', 'cat'),
    }),
    defineRoute({
      method: 'GET',
      path: '/facts/dog',
      permission: ContentPermission.FactsDog,
      summary: 'A random dog fact (bundled, answered offline)',
      query,
      produces: EVERY_FORMAT,
      response: fact,
      errors: ['InformationNotFound'],
      handle: stored('fact', 'dog'),
    }),
    defineRoute({
      method: 'GET',
      path: '/facts/chucknorris',
      permission: ContentPermission.FactsChuckNorris,
      summary: 'A Chuck Norris fact from chucknorris.io, or one kept from it when it fails',
      query,
      produces: EVERY_FORMAT,
      response: fact,
      responseHeaders: provenanceHeaders,
      errors: liveErrors,
      handle: async ({ query: { type }, accept, requestId }) =>
        E.map(({ entry, provenance }: { entry: ContentEntry; provenance: Provenance }) =>
          factIn(chooseFormat(type, accept), entry, withProvenance(provenance)),
        )(await deps.chuckNorris.execute({ requestId })),
    }),
    defineRoute({
      method: 'GET',
      path: '/facts/random',
      permission: ContentPermission.FactsRandom,
      summary: 'A random fact of a category chosen at random among those stored',
      query,
      produces: EVERY_FORMAT,
      response: fact,
      errors: ['InformationNotFound'],
      handle: async ({ query: { type }, accept }) =>
        E.map((entry: ContentEntry) => factIn(chooseFormat(type, accept), entry))(
          await deps.random.acrossCategories('fact'),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/quotes/random',
      permission: ContentPermission.QuotesRandom,
      summary: 'A random quote of a category chosen at random among those stored (imported or received)',
      query,
      produces: EVERY_FORMAT,
      response: quote,
      errors: ['InformationNotFound'],
      handle: async ({ query: { type }, accept }) =>
        E.map((entry: ContentEntry) => quoteIn(chooseFormat(type, accept), entry))(
          await deps.random.acrossCategories('quote'),
        ),
    }),
    ...(
      [
        [
          '/quotes/kanye',
          ContentPermission.QuotesKanye,
          'A Kanye West quote from kanye.rest, or one kept from it when it fails',
          deps.kanye,
        ],
        [
          '/quotes/ronswanson',
          ContentPermission.QuotesRonSwanson,
          'A Ron Swanson quote from ron-swanson-quotes, or one kept from it when it fails',
          deps.ronSwanson,
        ],
      ] as const
    ).map(([path, permission, summary, live]) =>
      defineRoute({
        method: 'GET',
        path,
        permission,
        summary,
        query,
        produces: EVERY_FORMAT,
        response: quote,
        responseHeaders: provenanceHeaders,
        errors: liveErrors,
        handle: async ({ query: { type }, accept, requestId }) =>
          E.map(({ entry, provenance }: { entry: ContentEntry; provenance: Provenance }) =>
            quoteIn(chooseFormat(type, accept), entry, withProvenance(provenance)),
          )(await live.execute({ requestId })),
      }),
    ),
  ];
}
