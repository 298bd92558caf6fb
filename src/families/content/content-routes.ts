import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  CATEGORY,
  CATEGORY_RULE,
  MAX_LABEL_CHARACTERS,
  MAX_TEXT_CHARACTERS,
  type ContentEntry,
  type ContentKind,
} from './domain/content.js';
import type { LiveContent, Provenance, RandomContent } from './domain/content-queries.js';
import {
  DEFAULT_CONTENT_PAGE,
  MAX_CONTENT_PAGE,
  MAX_QUERY_CHARACTERS,
  MAX_QUERY_WORDS,
  type ContentListing,
  type ContentPage,
  type ListContent,
} from './domain/list-content.js';
import type { DomainError } from '../../domain/errors.js';
import { ContentPermission } from './domain/permissions.js';
import { matching, numberWritten, oneOf, text } from '../../platform/http/codecs.js';
import { optional, pageQuery, required } from '../../platform/http/fields.js';
import { chooseFormat, EVERY_FORMAT, formatParameter, rendered, type Format } from '../../platform/http/negotiation.js';
import { defineRoute, json, type ResponseBody, type Route } from '../../platform/http/route-table.js';

export interface ContentRouteDependencies {
  readonly random: RandomContent;
  readonly list: ListContent;
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

const categoryCodec = matching(CATEGORY, CATEGORY_RULE);
const randomQuery = (kind: ContentKind) => ({
  type: formatParameter,
  category: optional(categoryCodec, `only a ${kind} of this category (404 code 22 when it holds none)`),
});

const length = numberWritten(
  /^[0-9]{1,4}$/,
  1,
  MAX_TEXT_CHARACTERS,
  `a whole number from 1 to ${MAX_TEXT_CHARACTERS}`,
  'integer',
);
/** The filters every listing takes: words, length, and its page. */
const listingQuery = (what: 'quotes' | 'facts') => ({
  query: optional(
    text(1, MAX_QUERY_CHARACTERS),
    `up to ${MAX_QUERY_WORDS} words that must each be a whole word of the text; letter case and accents are ignored`,
  ),
  minLength: optional(length, 'only texts of at least this many characters'),
  maxLength: optional(length, 'only texts of at most this many characters'),
  // The cursor is signed (list-cursor.ts): its form here, its signature by the use case.
  ...pageQuery(what, {
    max: MAX_CONTENT_PAGE,
    byDefault: DEFAULT_CONTENT_PAGE,
    cursor: /^[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{1,64}$/,
  }),
});

const nextCursor = t.union([t.string, t.null]);
const quotePage = t.strict({ quotes: t.readonlyArray(quote), nextCursor });
const factPage = t.strict({ facts: t.readonlyArray(fact), nextCursor });
const named = t.strict({ name: t.string, count: t.number });

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
  /** Of the category asked (404 code 22 when it holds none), else of one chosen at random. */
  const randomOf = (kind: ContentKind, category: string | undefined): Promise<Outcome<ContentEntry>> =>
    category === undefined ? deps.random.acrossCategories(kind) : deps.random.ofCategory(kind, category);
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
      summary: 'A random fact of the category asked, or of a category chosen at random among those stored',
      query: randomQuery('fact'),
      produces: EVERY_FORMAT,
      response: fact,
      errors: ['InformationNotFound'],
      handle: async ({ query: { type, category }, accept }) =>
        E.map((entry: ContentEntry) => factIn(chooseFormat(type, accept), entry))(await randomOf('fact', category)),
    }),
    defineRoute({
      method: 'GET',
      path: '/facts/list',
      permission: ContentPermission.FactsList,
      summary:
        'Stored facts a page at a time, in a stable order, optionally of one category, with given words, of a length',
      query: {
        category: optional(categoryCodec, 'only the facts of this category'),
        ...listingQuery('facts'),
      },
      response: factPage,
      handle: async ({ query: { category, ...rest } }) =>
        E.map(({ entries, nextCursor }: ContentPage) => json({ facts: entries.map(factOf), nextCursor }))(
          await deps.list.page('fact', { category, ...rest }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/facts/categories',
      permission: ContentPermission.FactsList,
      summary: 'Every category of the stored facts, by name, with how many each holds',
      response: t.strict({ categories: t.readonlyArray(named) }),
      handle: async () =>
        E.right(
          json({
            categories: (await deps.list.categories('fact')).map(({ category, count }) => ({ name: category, count })),
          }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/quotes/random',
      permission: ContentPermission.QuotesRandom,
      summary:
        'A random quote of the category asked, or of a category chosen at random among those stored (imported or received)',
      query: randomQuery('quote'),
      produces: EVERY_FORMAT,
      response: quote,
      errors: ['InformationNotFound'],
      handle: async ({ query: { type, category }, accept }) =>
        E.map((entry: ContentEntry) => quoteIn(chooseFormat(type, accept), entry))(await randomOf('quote', category)),
    }),
    defineRoute({
      method: 'GET',
      path: '/quotes/list',
      permission: ContentPermission.QuotesList,
      summary:
        'Stored quotes a page at a time, in a stable order, optionally of one tag (category) or author, with given words, of a length',
      query: {
        tag: optional(categoryCodec, "only the quotes of this tag: a quote's category is its tag"),
        author: optional(
          text(1, MAX_LABEL_CHARACTERS),
          'only the quotes of this author, as /quotes/authors names them; letter case, accents and spacing are ignored',
        ),
        ...listingQuery('quotes'),
      },
      response: quotePage,
      handle: async ({ query: { tag, ...rest } }) =>
        E.map(({ entries, nextCursor }: ContentPage) => json({ quotes: entries.map(quoteOf), nextCursor }))(
          await deps.list.page('quote', { category: tag, ...rest } satisfies ContentListing),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/quotes/authors',
      permission: ContentPermission.QuotesList,
      summary: 'Every author of the stored quotes, by name, with how many quotes each',
      response: t.strict({ authors: t.readonlyArray(named) }),
      handle: async () =>
        E.right(json({ authors: (await deps.list.authors()).map(({ author, count }) => ({ name: author, count })) })),
    }),
    defineRoute({
      method: 'GET',
      path: '/quotes/tags',
      permission: ContentPermission.QuotesList,
      summary: "Every tag of the stored quotes (a quote's category), by name, with how many quotes each",
      response: t.strict({ tags: t.readonlyArray(named) }),
      handle: async () =>
        E.right(
          json({
            tags: (await deps.list.categories('quote')).map(({ category, count }) => ({ name: category, count })),
          }),
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
