import { unescape } from 'node:querystring';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { InputError, PlacedInputError } from '../../domain/errors.js';
import { characterCount, trimWhiteSpace } from '../../domain/text.js';
import { echoed, illFormedPathSegments, illFormedQueryParameters } from './well-formed.js';

/**
 * One named input (a query parameter, a header, a body field): an io-ts decoder for its value,
 * whether it must be there, and a description for the OpenAPI document. Query parameters and
 * headers decode from their string; body fields from their JSON value.
 */
export interface Field<I, A> {
  readonly codec: t.Decoder<I, A>;
  readonly required: boolean;
  readonly description: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each field keeps its own decoded type
export type Schema<I> = Record<string, Field<I, any>>;
export type QuerySchema = Schema<string>;
export type HeaderSchema = Schema<string>;
export type BodySchema = Schema<unknown>;
export type ParamSchema = Schema<string>;

/**
 * What a body may hold beyond its declared fields, for the OpenAPI document: names matching
 * `namePattern`, at most `maxCount` of them, each a value `field` describes. The route hands
 * them to its use case as they came, after the field's codec.
 */
export interface AdditionalBody {
  readonly field: Field<unknown, unknown>;
  readonly namePattern: RegExp;
  readonly maxCount: number;
}

export type Decoded<S extends Schema<never>> = {
  [K in keyof S]: S[K] extends Field<never, infer A> ? (S[K]['required'] extends true ? A : A | undefined) : never;
};

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) for one value. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * A codec that says, as JSON Schema, what it accepts: io-ts's own types are read by their tags,
 * but a codec made here checks what no tag tells (a pattern, a length, a range), so it carries
 * its schema with it. Query parameters and headers are described by the value they stand for
 * (`scale` is an integer from 1 to 10), as OpenAPI describes a parameter.
 */
export type Described<C> = C & { readonly jsonSchema: JsonSchema };
export const described = <C extends t.Decoder<never, unknown>>(codec: C, jsonSchema: JsonSchema): Described<C> =>
  Object.assign(codec, { jsonSchema });
export const isDescribed = (codec: object): codec is Described<t.Decoder<never, unknown>> => 'jsonSchema' in codec;

export const required = <I, A>(codec: t.Decoder<I, A>, description: string) =>
  ({ codec, required: true, description }) as const;
export const optional = <I, A>(codec: t.Decoder<I, A>, description: string) =>
  ({ codec, required: false, description }) as const;

/** Text of at most `maxBytes` bytes once encoded as UTF-8. */
export const utf8UpTo = (maxBytes: number): Described<t.Type<string, string, unknown>> =>
  described(
    new t.Type<string, string, unknown>(
      `text of at most ${maxBytes} UTF-8 bytes`,
      (u): u is string => typeof u === 'string' && Buffer.byteLength(u) <= maxBytes,
      (u, c) =>
        typeof u === 'string' && Buffer.byteLength(u) <= maxBytes
          ? t.success(u)
          : t.failure(u, c, `longer than ${maxBytes} bytes`),
      t.identity,
    ),
    // JSON Schema counts characters, never bytes: no text of more characters can be short enough.
    { type: 'string', maxLength: maxBytes },
  );

/** Text matching a pattern; `name` says what it is, as in "expected <name>". */
export const matching = (pattern: RegExp, name: string): Described<t.Type<string, string, unknown>> =>
  described(
    new t.Type<string, string, unknown>(
      name,
      (u): u is string => typeof u === 'string' && pattern.test(u),
      (u, c) => (typeof u === 'string' && pattern.test(u) ? t.success(u) : t.failure(u, c)),
      t.identity,
    ),
    { type: 'string', pattern: pattern.source },
  );

/**
 * A number as typed in a query string: text matching `pattern` (which says what notation is
 * accepted: signs, decimals, how many digits) whose value lies from `min` to `max`.
 */
export const numberWritten = (
  pattern: RegExp,
  min: number,
  max: number,
  name: string,
  kind: 'integer' | 'number' = 'number',
): Described<t.Type<number, string, unknown>> => {
  const valueOf = (u: unknown): number | undefined => {
    if (typeof u !== 'string' || !pattern.test(u)) return undefined;
    const value = Number(u);
    return value >= min && value <= max ? value : undefined;
  };
  const codec = new t.Type<number, string, unknown>(
    name,
    (u): u is number => typeof u === 'number' && u >= min && u <= max,
    (u, c) => {
      const value = valueOf(u);
      return value === undefined ? t.failure(u, c) : t.success(value);
    },
    String,
  );
  return described(codec, { type: kind, minimum: min, maximum: max });
};

/** A flag written `true` or `false`, exactly. */
export const trueOrFalse = described(
  new t.Type<boolean, string, unknown>(
    'true or false',
    (u): u is boolean => typeof u === 'boolean',
    (u, c) => (u === 'true' ? t.success(true) : u === 'false' ? t.success(false) : t.failure(u, c)),
    String,
  ),
  { type: 'boolean' },
);

/** A JSON body's `true` or `false`. */
export const jsonFlag = described(t.boolean, { type: 'boolean' });

/** Text that must be one of `values`, exactly. */
export const oneOf = <V extends string>(values: readonly V[], name: string): Described<t.Type<V, string, unknown>> => {
  const is = (u: unknown): u is V => typeof u === 'string' && (values as readonly string[]).includes(u);
  return described(
    new t.Type<V, string, unknown>(name, is, (u, c) => (is(u) ? t.success(u) : t.failure(u, c)), t.identity),
    { type: 'string', enum: values },
  );
};

/**
 * Decodes named values against a schema. Missing values are reported before invalid ones, and
 * every offending name is listed. `preCheck` turns away values of the wrong kind before the
 * codec sees them (a repeated query parameter, say).
 */
function decodeFields<S extends Schema<never>>(
  schema: S,
  valueOf: (name: string) => unknown,
  preCheck: (name: string, value: unknown) => string | undefined = () => undefined,
): E.Either<InputError, Decoded<S>> {
  // Made only when something is refused: every request decodes its query.
  let missing: string[] | undefined;
  let refusals: { names: string[]; reasons: string[] } | undefined;
  const out: Record<string, unknown> = {};
  for (const [name, field] of entriesOf(schema)) {
    const raw = valueOf(name);
    if (raw === undefined) {
      if (field.required) (missing ??= []).push(name);
      continue;
    }
    const refused = preCheck(name, raw);
    const decoded = refused === undefined ? (field.codec as t.Decoder<unknown, unknown>).decode(raw) : undefined;
    if (decoded === undefined || E.isLeft(decoded)) {
      refusals ??= { names: [], reasons: [] };
      refusals.names.push(name);
      refusals.reasons.push(refused ?? `${name} must be ${field.codec.name}`);
      continue;
    }
    // A field named `__proto__` (a body's additional property may be) would set the prototype if assigned.
    if (name === '__proto__')
      Object.defineProperty(out, name, { value: decoded.right, enumerable: true, writable: true, configurable: true });
    else out[name] = decoded.right;
  }
  if (missing) return E.left({ _tag: 'MissingInput', fields: missing });
  if (refusals) return E.left({ _tag: 'InvalidInput', fields: refusals.names, reason: refusals.reasons.join('; ') });
  return E.right(out as Decoded<S>);
}

/** A schema's fields, listed once per schema: the routes' schemas live as long as the process. */
const schemaEntries = new WeakMap<Schema<never>, readonly (readonly [string, Field<never, unknown>])[]>();
function entriesOf(schema: Schema<never>): readonly (readonly [string, Field<never, unknown>])[] {
  let entries = schemaEntries.get(schema);
  if (!entries) schemaEntries.set(schema, (entries = Object.entries(schema)));
  return entries;
}

/** A record's own property of that name: `constructor` or `__proto__` are not taken from its prototype. */
const ownValues =
  (record: Readonly<Record<string, unknown>>) =>
  (name: string): unknown =>
    Object.hasOwn(record, name) ? record[name] : undefined;

/** Where a field of a request came from, as far as the catalogue's codes tell them apart. */
export type InputPlace = keyof typeof FIELD_ERRORS;

/** What a missing and an invalid field of each place is answered with (SPEC.md's codes 6 to 11). */
export const FIELD_ERRORS = {
  query: { missing: 'MissingQueryParameter', invalid: 'InvalidQueryParameter' },
  header: { missing: 'MissingHeader', invalid: 'InvalidHeader' },
  body: { missing: 'MissingBodyParameter', invalid: 'InvalidBodyParameter' },
} as const satisfies Record<string, { missing: PlacedInputError['_tag']; invalid: PlacedInputError['_tag'] }>;

/** Input refused, as answered for fields of `place`. */
export const placed = (error: InputError, place: InputPlace): PlacedInputError =>
  error._tag === 'MissingInput'
    ? { _tag: FIELD_ERRORS[place].missing, names: error.fields }
    : error.reason === undefined
      ? { _tag: FIELD_ERRORS[place].invalid, names: error.fields }
      : { _tag: FIELD_ERRORS[place].invalid, names: error.fields, details: error.reason };

const placedAs =
  (place: InputPlace) =>
  <A>(decoded: E.Either<InputError, A>): E.Either<PlacedInputError, A> =>
    E.isLeft(decoded) ? E.left(placed(decoded.left, place)) : decoded;

/**
 * A parameter given more than once (an array of values) is invalid, never silently reduced to one
 * of its values; a parameter the schema does not take is refused by name, never ignored (as a
 * body's unknown fields are): `?username=carol` must not pass for a request about someone else.
 */
export function decodeQuery<S extends QuerySchema>(
  schema: S,
  query: QueryParameters,
): E.Either<PlacedInputError, Decoded<S>> {
  const unknown = unknownParameters(schema, query);
  if (unknown) return E.left(unknown);
  return placedAs('query')(decodeFields(schema, (name) => query.get(name), givenOnce));
}

/**
 * The parameters of `query` that `schema` does not take, refused; undefined when there are none.
 * Counting the schema's names that are present tells that without listing anything, which
 * matters on the hot path: only a request that gives some other name pays for finding it.
 */
function unknownParameters(schema: Schema<never>, query: QueryParameters): PlacedInputError | undefined {
  if (query.size === 0) return undefined;
  const entries = entriesOf(schema);
  let known = 0;
  for (let index = 0; index < entries.length; index++) if (query.has(entries[index]![0])) known++;
  if (known === query.size) return undefined;
  const names = [...query.keys()].filter((name) => !Object.hasOwn(schema, name));
  const shown = names.map((name) => (name === '' ? '(a parameter without a name)' : echoed(name))).join(', ');
  const taken =
    entries.length === 0
      ? 'this endpoint takes none'
      : `this endpoint takes ${entries.map(([name]) => name).join(', ')}`;
  return { _tag: 'InvalidQueryParameter', names, details: `Unknown query parameter(s): ${shown} (${taken})` };
}

/** A query's parameters by name: a name given more than once has all its values, in order. */
export type QueryParameters = ReadonlyMap<string, string | string[]>;

/**
 * The parameters of a query string, as Koa 3's `ctx.query` reads them (URLSearchParams: `+` is a
 * space, a name given twice has an array of values, a leading `?` is no part of the first name).
 * An ASCII query string, which is what clients send, is split here and only its escaped parts
 * decoded, to the same effect without the URLSearchParams object, the `getAll` per name and the
 * dictionary-mode objects Koa builds. Raw Latin-1 characters next to a broken escape decode
 * otherwise than URLSearchParams does them, so any other query string is read by URLSearchParams.
 */
export function parsedQuery(querystring: string): QueryParameters {
  const read = new Map<string, string | string[]>();
  if (NOT_ASCII.test(querystring)) {
    const params = new URLSearchParams(querystring);
    for (const name of params.keys()) if (!read.has(name)) read.set(name, onceOrAll(params.getAll(name)));
    return read;
  }
  const pairs = (querystring.charCodeAt(0) === QUESTION_MARK ? querystring.slice(1) : querystring).split('&');
  for (const pair of pairs) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodedComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? '' : decodedComponent(pair.slice(equals + 1));
    const earlier = read.get(name);
    read.set(
      name,
      earlier === undefined ? value : typeof earlier === 'string' ? [earlier, value] : [...earlier, value],
    );
  }
  return read;
}

const NOT_ASCII = /[\u0080-\uffff]/;
const QUESTION_MARK = 0x3f;
const onceOrAll = (values: string[]): string | string[] => (values.length === 1 ? values[0]! : values);

/** `+` is a space; an escape that is not one stays as written (querystring's `unescape`). */
const decodedComponent = (raw: string): string =>
  raw.includes('%') || raw.includes('+') ? unescape(raw.replaceAll('+', ' ')) : raw;

const givenOnce = (name: string, value: unknown): string | undefined =>
  typeof value === 'string' ? undefined : `${name} must be given once`;

/**
 * A query string whose percent-escapes are not UTF-8 (`%FF`, `%C0%AF`, `%ED%A0%80`), refused by
 * the names of the parameters that hold them: Koa's `ctx.query` would read each as U+FFFD. The
 * `%` test keeps the common query string from being looked at twice.
 */
export function checkQueryEncoding(querystring: string): PlacedInputError | undefined {
  if (!querystring.includes('%')) return undefined;
  const names = illFormedQueryParameters(querystring);
  return names.length === 0
    ? undefined
    : { _tag: 'InvalidQueryParameter', names, details: `${names.join(', ')} must be percent-encoded UTF-8` };
}

/**
 * Header values are bytes that Node reads as Latin-1: anything beyond printable ASCII would be
 * read as something other than what the client meant, so it is refused, never guessed at.
 */
const PRINTABLE_ASCII = /^[\x20-\x7e\t]*$/;
const headerText = (name: string, value: unknown): string | undefined =>
  givenOnce(name, value) ?? (PRINTABLE_ASCII.test(value as string) ? undefined : `${name} must be printable ASCII`);

/** Headers by lower-case name, as Node gives them; a header sent empty counts as missing. */
export function decodeHeaders<S extends HeaderSchema>(
  schema: S,
  headers: Record<string, string | string[] | undefined>,
): E.Either<PlacedInputError, Decoded<S>> {
  const sentEmpty = Object.keys(schema).filter(
    (name) => typeof headers[name] === 'string' && headers[name].trim() === '',
  );
  if (sentEmpty.length > 0) return E.left({ _tag: 'MissingHeader', names: sentEmpty });
  return placedAs('header')(decodeFields(schema, ownValues(headers), headerText));
}

/** Path parameters, refused by their names: where the route says they came from decides the code. */
export const decodeParams = <S extends ParamSchema>(schema: S, params: Record<string, string>) =>
  decodeFields(schema, ownValues(params));

/**
 * A path whose percent-escapes are not UTF-8, refused by the name of the parameter in that place
 * of `pattern` (the route's path, prefix included), as `decodeParams` refuses them: @koa/router
 * hands such a segment on as it was written, where it could pass for text.
 */
export function checkPathEncoding(pattern: string, path: string): InputError | undefined {
  if (!path.includes('%')) return undefined;
  const bad = illFormedPathSegments(path);
  if (bad.length === 0) return undefined;
  const steps = pattern.split('/');
  const names = [...new Set(bad.map((index) => (steps[index]?.startsWith(':') ? steps[index].slice(1) : 'path')))];
  return { _tag: 'InvalidInput', fields: names, reason: `${names.join(', ')} must be percent-encoded UTF-8` };
}

export interface DecodedBody<S extends BodySchema> {
  readonly fields: Decoded<S>;
  /** The properties beyond the schema's, each decoded by `additional`'s codec. */
  readonly additional: Readonly<Record<string, unknown>>;
}

const NOTHING_MORE: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * A JSON object body. Fields the schema does not know are refused, by name, unless the route
 * takes additional properties: those are decoded by their codec and kept apart.
 */
export function decodeBody<S extends BodySchema>(
  schema: S,
  body: unknown,
  additional?: AdditionalBody,
): E.Either<PlacedInputError, DecodedBody<S>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return E.left({ _tag: 'InvalidBodyParameter', names: [], details: 'the body must be a JSON object' });
  }
  // Own keys only: `"constructor"` or `"__proto__"` in a body are unknown fields, not the prototype's.
  const unknown = Object.keys(body).filter((name) => !Object.hasOwn(schema, name));
  if (unknown.length > 0 && additional === undefined)
    return E.left({ _tag: 'InvalidBodyParameter', names: unknown, details: `Unknown field(s): ${unknown.join(', ')}` });
  const fields = placedAs('body')(decodeFields(schema, ownValues(body as Record<string, unknown>)));
  if (E.isLeft(fields)) return fields;
  if (unknown.length === 0) return E.right({ fields: fields.right, additional: NOTHING_MORE });
  const extra = placedAs('body')(
    decodeFields(
      Object.fromEntries(unknown.map((name) => [name, additional!.field])),
      ownValues(body as Record<string, unknown>),
    ),
  );
  return E.isLeft(extra) ? extra : E.right({ fields: fields.right, additional: extra.right });
}

/**
 * A string of `min` to `max` characters (code points: an emoji is one) once trimmed; what may be
 * in it is the domain's rule.
 */
export const text = (min: number, max: number): Described<t.Type<string, string, unknown>> => {
  const fits = (trimmed: string): boolean => {
    const length = characterCount(trimmed);
    return length >= min && length <= max;
  };
  const validate = (u: unknown, c: t.Context): t.Validation<string> => {
    if (typeof u !== 'string') return t.failure(u, c);
    const trimmed = trimWhiteSpace(u);
    return fits(trimmed) ? t.success(trimmed) : t.failure(u, c);
  };
  return described(
    new t.Type<string, string, unknown>(
      `text of ${min} to ${max} characters`,
      (u): u is string => typeof u === 'string' && fits(trimWhiteSpace(u)),
      validate,
      t.identity,
    ),
    // The lengths once trimmed: JSON Schema has no trimming, so a client keeps to them as sent.
    { type: 'string', minLength: min, maxLength: max },
  );
};

/** A secret as typed: never trimmed (its spaces are part of it), at most `max` characters (code points). */
export const secretText = (max: number): Described<t.Type<string, string, unknown>> => {
  const ok = (u: unknown): u is string => typeof u === 'string' && characterCount(u) <= max;
  return described(
    new t.Type<string, string, unknown>(
      `a string of at most ${max} characters`,
      ok,
      (u, c) => (ok(u) ? t.success(u) : t.failure(u, c)),
      t.identity,
    ),
    {
      type: 'string',
      maxLength: max,
    },
  );
};

const MAX_LISTED_NAME_LENGTH = 100;

/** A list of at most `max` short strings (100 characters each), such as permission names. */
export const names = (max: number): Described<t.Type<string[], string[], unknown>> => {
  const ok = (u: unknown): u is string[] =>
    Array.isArray(u) &&
    u.length <= max &&
    u.every((s) => typeof s === 'string' && characterCount(s) <= MAX_LISTED_NAME_LENGTH);
  return described(
    new t.Type<string[], string[], unknown>(
      `a list of at most ${max} names`,
      ok,
      (u, c) => (ok(u) ? t.success(u) : t.failure(u, c)),
      t.identity,
    ),
    {
      type: 'array',
      maxItems: max,
      items: { type: 'string', maxLength: MAX_LISTED_NAME_LENGTH },
    },
  );
};

/** Plain decimal notation: no exponent, hex, "NaN" or "Infinity", nothing empty. */
const DECIMAL_NOTATION = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)`;
const DECIMAL = new RegExp(`^(?=.{1,32}$)${DECIMAL_NOTATION}$`);

const degrees = (limit: number) => numberWritten(DECIMAL, -limit, limit, `a decimal number from -${limit} to ${limit}`);
/** Decimal degrees as typed, for every family that takes a point (location, weather). */
export const latitude = degrees(90);
export const longitude = degrees(180);

const LAT_LON = new RegExp(`^(?=.{1,65}$)(${DECIMAL_NOTATION}), ?(${DECIMAL_NOTATION})$`);
const inRange = ({ lat, lon }: { lat: number; lon: number }) => Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

/** A point typed as one value, `lat,lon` in decimal degrees (a space after the comma allowed). */
export const latLon = described(
  new t.Type<{ lat: number; lon: number }, string, unknown>(
    'lat,lon in decimal degrees (lat from -90 to 90, lon from -180 to 180)',
    (u): u is { lat: number; lon: number } =>
      typeof u === 'object' && u !== null && 'lat' in u && 'lon' in u && inRange(u as { lat: number; lon: number }),
    (u, c) => {
      const match = typeof u === 'string' ? LAT_LON.exec(u) : null;
      const point = match && { lat: Number(match[1]), lon: Number(match[2]) };
      return point && inRange(point) ? t.success(point) : t.failure(u, c);
    },
    ({ lat, lon }) => `${lat},${lon}`,
  ),
  { type: 'string', pattern: LAT_LON.source },
);

/** A place name as typed (`Paris`, `Paris, FR`): which names and countries exist is the gazetteer's question. */
export const placeName = text(1, 200);

/** The `x-uid` header and the `firebaseuid` field: a user's public id. */
export const userUid = matching(/^[A-Za-z0-9_-]{1,64}$/, 'a user uid');
export const tokenId = matching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a token id');
