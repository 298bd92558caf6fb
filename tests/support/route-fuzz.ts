import fc from 'fast-check';
import { prefixOf, type HttpMethod, type Route } from '../../src/platform/http/route-table.js';

/**
 * Requests generated from the route table: for every field a route declares (path parameter,
 * query parameter, header, body field) a well-formed value from `RouteSamples` or an adversarial
 * one, plus fields it does not declare, other methods and bodies of every shape. What a request
 * carries that issue 11 says must always be refused is written down in `mustRefuse`.
 */

/** Values the run learns from the server at start-up (ciphertexts it made), sampled like any other. */
export interface FuzzPool {
  readonly ciphertexts: readonly string[];
}

/**
 * Users and tokens that exist when a request is sent. Requests delete and create them as the run
 * goes, so a generated request names one by reference (`poolUid3x`), resolved when it is sent.
 */
export interface LivePool {
  readonly uids: readonly string[];
  readonly tokenIds: readonly string[];
  /** Messages in the mail outbox. */
  readonly messageIds: readonly string[];
  /** Webhook endpoints. */
  readonly webhookIds: readonly string[];
}

const REFERENCE = /pool(Uid|Token|Message|Webhook)(\d+)x/g;
export const uidReference: fc.Arbitrary<string> = fc.nat({ max: 15 }).map((n) => `poolUid${n}x`);
export const tokenIdReference: fc.Arbitrary<string> = fc.nat({ max: 15 }).map((n) => `poolToken${n}x`);
export const messageIdReference: fc.Arbitrary<string> = fc.nat({ max: 15 }).map((n) => `poolMessage${n}x`);
export const webhookIdReference: fc.Arbitrary<string> = fc.nat({ max: 15 }).map((n) => `poolWebhook${n}x`);

/** Text with each reference replaced by the live user, token or message it points at (an unknown one when there are none). */
export function resolveReferences(text: string, live: LivePool): string {
  return text.replace(REFERENCE, (_, kind: string, n: string) => {
    const list =
      kind === 'Uid'
        ? live.uids
        : kind === 'Token'
          ? live.tokenIds
          : kind === 'Webhook'
            ? live.webhookIds
            : live.messageIds;
    return list.length === 0 ? `gone${n}` : list[Number(n) % list.length]!;
  });
}

/** A well-formed value of one field: text for the query, path and headers; any JSON value for a body field. */
export type Sample<T> = fc.Arbitrary<T> | ((pool: FuzzPool) => fc.Arbitrary<T>);

export interface RouteSamples {
  readonly params?: Record<string, Sample<string>>;
  readonly query?: Record<string, Sample<string>>;
  readonly headers?: Record<string, Sample<string>>;
  readonly body?: Record<string, Sample<unknown>>;
  /**
   * For a route that takes one thing in one of several ways (a place as `lat` and `lon`, or as
   * `city`, or as a header), the fields of each way (`"query lat"`, `"headers x-city"`): an honest
   * request gives the fields of one way, chosen at random, and none of the others'.
   */
  readonly oneWayOf?: readonly (readonly string[])[];
  /** Optional fields no sample gives well-formed: an honest request gives them seldom (see src/platform/http/route-samples.ts). */
  readonly rarelyGiven?: readonly string[];
}

/** Who the request claims to be: the fuzzer's `*` user, a user holding one permission, nobody, or garbage. */
export type Caller =
  | { readonly kind: 'admin' }
  | { readonly kind: 'narrow' }
  | { readonly kind: 'none' }
  | { readonly kind: 'header'; readonly value: string };

export interface FuzzRequest {
  readonly route: Route;
  readonly method: string;
  /** Path and query as sent: already percent-encoded, or deliberately not. */
  readonly target: string;
  /** Header values as bytes in latin1 strings, as Node writes them; a list is a repeated header. */
  readonly headers: Record<string, string | string[]>;
  readonly body: Buffer | undefined;
  /** Sent with Transfer-Encoding: chunked instead of Content-Length. */
  readonly chunked: boolean;
  readonly caller: Caller;
  /**
   * What the request must not succeed with: fields of this route that carry invalid UTF-8 or a
   * lone surrogate, query parameters it does not take, body keys given twice (issue 24).
   */
  readonly mustRefuse: readonly string[];
  /** Sent with the route's method to its path as written: what answers it is the route's own pipeline. */
  readonly reachesRoute: boolean;
}

/** UTF-8 that no decoder may accept: a stray byte, an overlong '/', a surrogate, a cut sequence, beyond U+10FFFF. */
export const INVALID_UTF8 = [
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0x80],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
  [0xfe, 0xfe],
].map((bytes) => Buffer.from(bytes));
export const LONE_SURROGATES = ['\ud800', '\udfff', '\udbff'];
/** Bidirectional and invisible formatting characters (issue 11 §2). */
export const FORMAT_CHARACTERS = ['\u202e', '\u202a', '\u200b', '\u200f', '\u2066', '\u2069', '\ufeff'];
export const CONTROL_CHARACTERS = ['\u0000', '\u0001', '\u0007', '\u001b', '\u007f', '\u0085', '\n', '\r', '\t'];
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'];
const HUGE_LENGTHS = [257, 1025, 8193, 8400, 17_000, 33_000];
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const resolve = <T>(sample: Sample<T>, pool: FuzzPool): fc.Arbitrary<T> =>
  typeof sample === 'function' ? sample(pool) : sample;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Text as a percent-encoded piece of a URL; a lone surrogate is written as the (invalid) UTF-8 of its code unit. */
function percentEncode(text: string): { encoded: string; invalid: boolean } {
  if (!LONE_SURROGATE.test(text)) return { encoded: encodeURIComponent(text), invalid: false };
  let encoded = '';
  let invalid = false;
  for (const character of text) {
    const unit = character.charCodeAt(0);
    if (character.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      invalid = true;
      encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      encoded += encodeURIComponent(character);
    }
  }
  return { encoded, invalid };
}

/** A query parameter's name as the server reads it; a name whose escapes do not decode is no name any route takes. */
const decodedName = (encoded: string): string => {
  try {
    return decodeURIComponent(encoded.replaceAll('+', ' '));
  } catch {
    return encoded;
  }
};

const hex = (bytes: Buffer) =>
  [...bytes].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const insertAt = (text: string, index: number, piece: string) => {
  const at = text.length === 0 ? 0 : index % (text.length + 1);
  return text.slice(0, at) + piece + text.slice(at);
};

interface UrlValue {
  readonly encoded: string;
  readonly invalid: boolean;
}

/**
 * Text of any graphemes or code points, made once: an arbitrary of graphemes builds its table of
 * them when first asked to read a value back, and one made per field built it per field (about a
 * second of the fuzz suite's generation).
 */
const GRAPHEMES_24 = fc.string({ unit: 'grapheme', maxLength: 24 });
const GRAPHEMES_40 = fc.string({ unit: 'grapheme', maxLength: 40 });
const BINARY_12 = fc.string({ unit: 'binary', maxLength: 12 });

/** A value for a query parameter or a path segment, starting from the field's well-formed sample. */
function urlValue(sample: fc.Arbitrary<string>, honest = false): fc.Arbitrary<UrlValue> {
  if (honest) return sample.map(percentEncode);
  return fc.oneof(
    { weight: 30, arbitrary: sample.map(percentEncode) },
    { weight: 6, arbitrary: GRAPHEMES_24.map(percentEncode) },
    { weight: 2, arbitrary: BINARY_12.map(percentEncode) },
    {
      weight: 8,
      arbitrary: fc.tuple(sample, fc.constantFrom(...INVALID_UTF8), fc.nat()).map(([text, bytes, at]) => {
        const { encoded } = percentEncode(text);
        return { encoded: insertAt(encoded, at, hex(bytes)).replace(/%(?![0-9A-F]{2})/g, '%25'), invalid: true };
      }),
    },
    {
      weight: 6,
      arbitrary: fc
        .tuple(sample, fc.constantFrom(...FORMAT_CHARACTERS, ...CONTROL_CHARACTERS, ...LONE_SURROGATES), fc.nat())
        .map(([text, character, at]) => percentEncode(insertAt(text, at, character))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...HUGE_LENGTHS), fc.constantFrom('a', 'é', '中', '😀'))
        .map(([length, unit]) => percentEncode(unit.repeat(length))),
    },
    { weight: 2, arbitrary: fc.constant({ encoded: '', invalid: false }) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('%', '%%', '%G1', '%2', '+', '%2B', '&', '=', '%00', '%0A', ';', '..', '%2F', '%5C', '%3F', '%23')
        .map((encoded) => ({ encoded, invalid: false })),
    },
  );
}

interface HeaderValue {
  readonly raw: string;
  readonly invalid: boolean;
}

/** Node writes header strings as latin1; a byte it refuses to send (control characters) is dropped. */
const latin1OfUtf8 = (text: string): string =>
  Buffer.from(text, 'utf8')
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '');

function headerValue(sample: fc.Arbitrary<string>, honest = false): fc.Arbitrary<HeaderValue> {
  if (honest) return sample.map((text) => ({ raw: latin1OfUtf8(text), invalid: false }));
  return fc.oneof(
    { weight: 30, arbitrary: sample.map((text) => ({ raw: latin1OfUtf8(text), invalid: false })) },
    {
      weight: 6,
      arbitrary: GRAPHEMES_24.map((text) => ({ raw: latin1OfUtf8(text), invalid: false })),
    },
    {
      weight: 6,
      arbitrary: fc.tuple(sample, fc.constantFrom(...INVALID_UTF8), fc.nat()).map(([text, bytes, at]) => ({
        raw: insertAt(latin1OfUtf8(text), at, bytes.toString('latin1')),
        invalid: true,
      })),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(sample, fc.constantFrom(...FORMAT_CHARACTERS), fc.nat())
        .map(([text, character, at]) => ({ raw: latin1OfUtf8(insertAt(text, at, character)), invalid: false })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(1000, 40_000).map((length) => ({ raw: 'x'.repeat(length), invalid: false })),
    },
    { weight: 2, arbitrary: fc.constantFrom('', ' ', '\t').map((raw) => ({ raw, invalid: false })) },
  );
}

interface JsonPiece {
  readonly bytes: Buffer;
  readonly invalid: boolean;
}

const jsonPiece = (value: unknown): JsonPiece => ({
  bytes: Buffer.from(JSON.stringify(value) ?? 'null'),
  invalid: false,
});

/** Arrays or objects nested `depth` deep, as JSON text. */
const nested = (depth: number, kind: 'array' | 'object') =>
  kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** JSON text of an object whose keys are given as written (so `__proto__` is an own key, as a client would send it). */
const objectText = (entries: readonly (readonly [string, JsonPiece])[]): JsonPiece => ({
  bytes: Buffer.concat([
    Buffer.from('{'),
    ...entries.flatMap(([key, value], index) => [
      Buffer.from(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`),
      value.bytes,
    ]),
    Buffer.from('}'),
  ]),
  invalid: entries.some(([, value]) => value.invalid),
});

/** A value for a body field: its sample, or the wrong type, or adversarial text. */
function bodyValue(sample: fc.Arbitrary<unknown>, honest: boolean): fc.Arbitrary<JsonPiece> {
  if (honest) return sample.map(jsonPiece);
  const sampleText = sample.map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')));
  return fc.oneof(
    { weight: 30, arbitrary: sample.map(jsonPiece) },
    {
      weight: 6,
      arbitrary: fc
        .oneof(
          fc.integer(),
          fc.double(),
          fc.boolean(),
          fc.constant(null),
          fc.constant([]),
          fc.constant({}),
          fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
        )
        .map(jsonPiece),
    },
    { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(jsonPiece) },
    { weight: 4, arbitrary: GRAPHEMES_24.map(jsonPiece) },
    // JSON.stringify writes a lone surrogate as its escape, `"\ud800"`: well-formed JSON, not well-formed text.
    {
      weight: 6,
      arbitrary: fc
        .tuple(sampleText, fc.constantFrom(...LONE_SURROGATES), fc.nat())
        .map(([text, surrogate, at]) => ({ ...jsonPiece(insertAt(text, at, surrogate)), invalid: true })),
    },
    {
      weight: 6,
      arbitrary: fc.tuple(sampleText, fc.constantFrom(...INVALID_UTF8), fc.nat()).map(([text, bytes, at]) => {
        const quoted = JSON.stringify(text);
        const cut = 1 + (quoted.length <= 2 ? 0 : at % (quoted.length - 1));
        return {
          bytes: Buffer.concat([Buffer.from(quoted.slice(0, cut)), bytes, Buffer.from(quoted.slice(cut))]),
          invalid: true,
        };
      }),
    },
    {
      weight: 6,
      arbitrary: fc
        .tuple(sampleText, fc.constantFrom(...FORMAT_CHARACTERS, ...CONTROL_CHARACTERS), fc.nat())
        .map(([text, character, at]) => jsonPiece(insertAt(text, at, character))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...HUGE_LENGTHS), fc.constantFrom('a', 'é', '😀'))
        .map(([length, unit]) => jsonPiece(unit.repeat(length))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(50, 2_000), fc.constantFrom('array' as const, 'object' as const))
        .map(([depth, kind]) => ({ bytes: Buffer.from(nested(depth, kind)), invalid: false })),
    },
    { weight: 1, arbitrary: fc.constant(objectText([['__proto__', jsonPiece({ admin: true })]])) },
  );
}

interface BodyPlan {
  readonly body: Buffer | undefined;
  readonly contentType: string | undefined;
  readonly mustRefuse: readonly string[];
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json-patch+json',
  '',
];

function bodyPlan(route: Route, fieldSample: FieldSample, honest: boolean): fc.Arbitrary<BodyPlan> {
  const json = (body: string | Buffer): BodyPlan => ({
    body: Buffer.from(body),
    contentType: 'application/json',
    mustRefuse: [],
  });
  const other = fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => json(JSON.stringify(value) ?? 'null')) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          '{',
          '{"a":}',
          '{"a":1}x',
          "{'a':1}",
          '[1,]',
          'nul',
          '{"a":1,"a":2}',
          '"\\ud800"',
          '{"\\ud800":1}',
        )
        .map(json),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(50, 5_000), fc.constantFrom('array' as const, 'object' as const))
        .map(([depth, kind]) => json(nested(depth, kind))),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(16_385, 40_000).map((length) => json(JSON.stringify({ x: 'a'.repeat(length) }))),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...INVALID_UTF8)
        .map((bytes) => json(Buffer.concat([Buffer.from('{"x":"'), bytes, Buffer.from('"}')]))),
    },
  );
  const schema = route.body;
  const none = fc.constant<BodyPlan>({ body: undefined, contentType: undefined, mustRefuse: [] });
  if (!schema) {
    if (honest) return none;
    return fc.oneof(
      { weight: 19, arbitrary: fc.constant({ body: undefined, contentType: undefined, mustRefuse: [] }) },
      { weight: 1, arbitrary: other },
    );
  }
  const fields = Object.keys(schema).map((name) => {
    const { sample, always, rarely } = fieldSample('body', name);
    const entry = fc.tuple(fc.constant(name), bodyValue(sample, honest));
    return honest && (schema[name]!.required || always) ? entry : optionally(entry, undefined, honest && rarely);
  });
  if (honest)
    return fc.tuple(...fields).map((chosen) => ({
      body: objectText(chosen.filter((entry) => entry !== undefined)).bytes,
      contentType: 'application/json',
      mustRefuse: [],
    }));
  const unknownFields = fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 8 })),
      fc.jsonValue({ maxDepth: 1 }).map(jsonPiece),
    ),
    { maxLength: 2 },
  );
  // Now and then a key given again, with a value of its own: JSON.parse would keep the last (issue 24).
  const repeated = fc.oneof(
    { weight: 9, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 1 }).map(jsonPiece)) },
  );
  const structured = fc
    .tuple(
      fc.tuple(...fields),
      fc.oneof({ weight: 9, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: unknownFields }),
      fc.oneof(
        { weight: 12, arbitrary: fc.constant('application/json') },
        { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      ),
      repeated,
    )
    .map(([chosen, extra, contentType, repeat]): BodyPlan => {
      const entries = [...chosen.filter((entry) => entry !== undefined), ...extra];
      const again =
        repeat && entries.length > 0 ? ([entries[repeat[0] % entries.length]![0], repeat[1]] as const) : undefined;
      const text = objectText(again ? [...entries, again] : entries);
      const invalid = chosen
        .filter((entry) => entry !== undefined && entry[1].invalid)
        .map((entry) => `body ${entry![0]}`);
      return {
        body: text.bytes,
        contentType: contentType || undefined,
        mustRefuse: again ? [...invalid, `body ${again[0]} given twice`] : invalid,
      };
    });
  return fc.oneof(
    { weight: 16, arbitrary: structured },
    { weight: 1, arbitrary: none },
    { weight: 3, arbitrary: other },
  );
}

const callers: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 80, arbitrary: fc.constant({ kind: 'admin' as const }) },
  { weight: 5, arbitrary: fc.constant({ kind: 'narrow' as const }) },
  { weight: 5, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 10,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Basic YWxpY2U6cGFzc3dvcmQ=',
          'Bearer a b',
          'bearer uapi_',
          'Token abc',
          'Bearer uapi_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        ),
        GRAPHEMES_40.map((text) => latin1OfUtf8(`Bearer ${text}`)),
        fc.constantFrom(...INVALID_UTF8).map((bytes) => `Bearer uapi_${bytes.toString('latin1')}`),
      )
      .map((value) => ({ kind: 'header' as const, value })),
  },
);

type Place = 'params' | 'query' | 'headers' | 'body';
/** A field's well-formed values, and whether an honest request always carries it. */
/** A field's sample; `always` given, even when optional; `rarely` given, when optional (RouteSamples.rarelyGiven). */
type FieldSample = (place: Place, name: string) => { sample: fc.Arbitrary<never>; always: boolean; rarely: boolean };

/**
 * An optional field of an honest request: given two times in three, or one in eight where no
 * sample of it is well-formed (a cursor only the server can sign), so that the route's successes
 * do not hang on the seed.
 */
const optionally = <T, Nil>(given: fc.Arbitrary<T>, nil: Nil, rarely: boolean): fc.Arbitrary<T | Nil> =>
  rarely
    ? fc.oneof({ weight: 7, arbitrary: fc.constant(nil) }, { weight: 1, arbitrary: given })
    : fc.option(given, { freq: 3, nil });

/**
 * How a request is made: as a client reading the documentation would, as an attacker would, or
 * as documented but for one character put into one field (`"query data"`, `"body email"`).
 */
export type Manner =
  | { readonly kind: 'honest' }
  | { readonly kind: 'adversarial' }
  | { readonly kind: 'inject'; readonly field: string; readonly character: string; readonly at: number };

const samePath = (path: string) => path;
/** The path as clients mistype it: a trailing slash, capitals, doubled or dotted segments, escaped letters. */
const pathSpellings: fc.Arbitrary<(path: string) => string> = fc.oneof(
  { weight: 20, arbitrary: fc.constant(samePath) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      (path: string) => `${path}/`,
      (path: string) => path.toUpperCase(),
      (path: string) => `/${path}`,
      (path: string) => path.replace('/api/', '/api//'),
      (path: string) => path.replace('/api/', '/api/./'),
      (path: string) => path.replace('/api/', '/api/x/../'),
      (path: string) => path.replace('/api/', '/%61pi/'),
      (path: string) => `${path}%00`,
      (path: string) => `${path};x=1`,
    ),
  },
);

/** Every field a route declares, as `"<place> <name>"`. */
export const fieldsOf = (route: Route): string[] =>
  (['params', 'query', 'headers', 'body'] as const).flatMap((place) =>
    Object.keys(route[place] ?? {}).map((name) => `${place} ${name}`),
  );

/**
 * Requests to one route. Honest ones take the route's method and the `*` caller, and give each
 * field its sample (or leave it out when optional). Adversarial ones take the route's method most
 * of the time and attack every declared field, and add strangers.
 */
export function requestsFor(
  route: Route,
  samples: RouteSamples,
  pool: FuzzPool,
  manner: Manner,
): fc.Arbitrary<FuzzRequest> {
  const honest = manner.kind !== 'adversarial';
  const fieldSample: FieldSample = (place, name) => {
    const sample = samples[place]?.[name];
    if (!sample)
      throw new Error(
        `route-fuzz: no sample for ${place} ${name} of ${route.method} ${route.path}: add one to its family's samples (src/families/<family>/<family>-samples.ts)`,
      );
    const resolved = resolve<unknown>(sample, pool);
    const rarely = samples.rarelyGiven?.includes(`${place} ${name}`) ?? false;
    if (manner.kind !== 'inject' || manner.field !== `${place} ${name}`)
      return { sample: resolved as fc.Arbitrary<never>, always: false, rarely };
    const inject = (value: unknown) =>
      typeof value === 'string' ? insertAt(value, manner.at, manner.character) : value;
    return { sample: resolved.map(inject) as fc.Arbitrary<never>, always: true, rarely };
  };
  const ways = honest ? (samples.oneWayOf ?? []) : [];
  const inAWay = (field: string) => ways.some((way) => way.includes(field));
  // A request that puts a character into a field gives that field's way.
  const injectedWay = manner.kind === 'inject' ? ways.findIndex((way) => way.includes(manner.field)) : -1;
  const way =
    ways.length === 0 ? fc.constant(-1) : injectedWay >= 0 ? fc.constant(injectedWay) : fc.nat(ways.length - 1);
  const segments = route.path.split('/').map((segment) => {
    if (!segment.startsWith(':'))
      return fc.constant({ encoded: segment, invalid: false, name: undefined as string | undefined });
    const name = segment.slice(1);
    return urlValue(fieldSample('params', name).sample, honest).map((value) => ({ ...value, name }));
  });
  const declaredQuery = Object.keys(route.query).map((name) => {
    const { sample, always, rarely } = fieldSample('query', name);
    const once = urlValue(sample, honest).map((value) => [[name, value]] as [string, UrlValue][]);
    if (honest)
      return route.query[name]!.required || always || inAWay(`query ${name}`)
        ? once
        : optionally(once, [] as [string, UrlValue][], rarely);
    // Absent, once, or repeated (a repeated parameter is refused, never reduced to one of its values).
    return fc.oneof(
      { weight: 2, arbitrary: fc.constant([] as [string, UrlValue][]) },
      { weight: 12, arbitrary: once },
      {
        weight: 1,
        arbitrary: fc
          .array(urlValue(sample), { minLength: 2, maxLength: 3 })
          .map((values) => values.map((value) => [name, value] as [string, UrlValue])),
      },
    );
  });
  const strangerQuery = fc.oneof(
    { weight: 12, arbitrary: fc.constant([] as [string, UrlValue][]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(...PROTOTYPE_NAMES, 'data', 'id', 'x-uid'),
            fc.string({ maxLength: 6 }).map((name) => percentEncode(name).encoded),
          ),
          urlValue(fc.string({ maxLength: 8 })),
        ),
        { maxLength: 3 },
      ),
    },
  );
  const declaredHeaders = Object.keys(route.headers).map((name) => {
    const { sample, always, rarely } = fieldSample('headers', name);
    const given = headerValue(sample, honest).map((value) => [name, value] as const);
    return honest && (route.headers[name]!.required || always || inAWay(`headers ${name}`))
      ? given
      : optionally(given, undefined, honest && rarely);
  });
  // Headers the route does not take: never silently reinterpreted.
  const strangerHeaders = fc.oneof(
    { weight: 10, arbitrary: fc.constant([] as (readonly [string, HeaderValue])[]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.tuple(
          fc.constantFrom(
            'x-uid',
            'x-game',
            'x-format',
            'x-request-id',
            'accept',
            'x-forwarded-for',
            '__proto__',
            'constructor',
          ),
          headerValue(uidReference),
        ),
        { maxLength: 2 },
      ),
    },
  );
  const method = honest
    ? fc.constant(route.method as string)
    : fc.oneof(
        { weight: 19, arbitrary: fc.constant(route.method as string) },
        { weight: 1, arbitrary: fc.constantFrom<string>(...METHODS, 'OPTIONS') },
      );
  return fc
    .record({
      method,
      segments: fc.tuple(...segments),
      query: fc.tuple(...declaredQuery, honest ? fc.constant([]) : strangerQuery),
      order: fc.nat(),
      spelling: honest ? fc.constant(samePath) : pathSpellings,
      chunked: honest
        ? fc.constant(false)
        : fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      headers: fc.tuple(...declaredHeaders),
      strangers: honest ? fc.constant([]) : strangerHeaders,
      body: bodyPlan(route, fieldSample, honest),
      caller: honest ? fc.constant<Caller>({ kind: 'admin' }) : callers,
      way,
    })
    .map(
      ({
        method,
        segments,
        query,
        order,
        spelling,
        chunked,
        headers: allHeaders,
        strangers,
        body,
        caller,
        way: chosen,
      }): FuzzRequest => {
        const otherWay = (field: string) => inAWay(field) && !ways[chosen]!.includes(field);
        const pairs = query.flat().filter(([name]) => !otherWay(`query ${name}`));
        const headers = allHeaders.filter((header) => header === undefined || !otherWay(`headers ${header[0]}`));
        // The same parameters in another order now and then: no meaning may hang on it.
        if (pairs.length > 1 && order % 4 === 0) pairs.push(pairs.shift()!);
        const queryString = pairs.map(([name, value]) => `${name}=${value.encoded}`).join('&');
        const sentHeaders: Record<string, string | string[]> = {};
        for (const [name, value] of [...headers.filter((header) => header !== undefined), ...strangers]) {
          const previous = Object.hasOwn(sentHeaders, name) ? sentHeaders[name] : undefined;
          sentHeaders[name] = previous === undefined ? value.raw : [...[previous].flat(), value.raw];
        }
        if (body.contentType !== undefined && body.body !== undefined) sentHeaders['content-type'] = body.contentType;
        const mustRefuse = [
          ...segments
            .filter((segment) => segment.invalid && segment.name !== undefined)
            .map((segment) => `path ${segment.name}`),
          ...pairs
            .filter(([name, value]) => value.invalid && Object.hasOwn(route.query, name))
            .map(([name]) => `query ${name}`),
          ...pairs
            .filter(([name]) => !Object.hasOwn(route.query, decodedName(name)))
            .map(([name]) => `query ${name} not taken`),
          ...headers
            .filter((header) => header !== undefined && header[1].invalid)
            .map((header) => `header ${header![0]}`),
          ...(route.body ? body.mustRefuse : []),
        ];
        return {
          route,
          method,
          target: `${spelling(`${prefixOf(route)}${segments.map((segment) => segment.encoded).join('/')}`)}${queryString ? `?${queryString}` : ''}`,
          chunked,
          headers: sentHeaders,
          body: body.body,
          caller,
          mustRefuse: method === route.method ? [...new Set(mustRefuse)] : [],
          reachesRoute: method === route.method && spelling === samePath,
        };
      },
    );
}

/** Requests for every route of the table, each route about equally often, one in four of them honest. */
export const requestsForTable = (
  routes: readonly Route[],
  samplesOf: (route: Route) => RouteSamples,
  pool: FuzzPool,
): fc.Arbitrary<FuzzRequest> =>
  fc.oneof(
    ...routes.map((route) =>
      fc.oneof(
        { weight: 1, arbitrary: requestsFor(route, samplesOf(route), pool, { kind: 'honest' }) },
        { weight: 3, arbitrary: requestsFor(route, samplesOf(route), pool, { kind: 'adversarial' }) },
      ),
    ),
  );

export interface FormatCharacterProbe {
  /** `"<place> <name>"` of the field the characters are put into. */
  readonly field: string;
  /** The request with a control character in that field. */
  readonly control: FuzzRequest;
  /** The same request with a formatting character in the same place instead, one per character. */
  readonly formats: readonly { readonly character: string; readonly request: FuzzRequest }[];
}

/**
 * Issue 11 §2: formatting characters are refused wherever control characters are. For every
 * field of every route, an honest request with U+0001 at the start and after the first character,
 * and the same request (same seed, so every other value is the same) with each formatting
 * character there instead.
 */
export function formatCharacterProbes(
  routes: readonly Route[],
  samplesOf: (route: Route) => RouteSamples,
  pool: FuzzPool,
  seed: number,
): FormatCharacterProbe[] {
  return routes.flatMap((route) =>
    fieldsOf(route).flatMap((field) =>
      [0, 1].map((at): FormatCharacterProbe => {
        const made = (character: string) =>
          fc.sample(requestsFor(route, samplesOf(route), pool, { kind: 'inject', field, character, at }), {
            seed,
            numRuns: 1,
          })[0]!;
        return {
          field,
          control: made('\u0001'),
          formats: FORMAT_CHARACTERS.map((character) => ({ character, request: made(character) })),
        };
      }),
    ),
  );
}

/** How an unfinished request ends on the client's side: it closes its side, or it stalls and sends nothing more. */
export type Unfinished = 'close' | 'stall';

/**
 * The bytes of `request` with its body cut short: framed as longer than what is sent (a
 * Content-Length `missing` bytes beyond the body, or a last chunk declared `missing` bytes longer
 * than it is), so that the server waits for bytes that never come. A request without a body gets
 * `{}` as one; `authorization` replaces the caller's, as the fuzz suite's own requests do.
 */
export function unfinishedRequest(
  request: FuzzRequest,
  authorization: string | undefined,
  live: LivePool,
  missing: number,
): Buffer {
  const resolved = (text: string) => resolveReferences(text, live);
  const body = Buffer.from(resolved((request.body ?? Buffer.from('{}')).toString('latin1')), 'latin1');
  const headers = Object.entries(request.headers).filter(
    ([name]) => !['content-length', 'transfer-encoding', 'host', 'authorization'].includes(name.toLowerCase()),
  );
  const lines = [`${request.method} ${resolved(request.target)} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [name, value] of headers) for (const one of [value].flat()) lines.push(`${name}: ${resolved(one)}`);
  if (authorization !== undefined) lines.push(`Authorization: ${authorization}`);
  lines.push(request.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length + missing}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return Buffer.concat(
    request.chunked ? [head, Buffer.from(`${(body.length + missing).toString(16)}\r\n`, 'latin1'), body] : [head, body],
  );
}
