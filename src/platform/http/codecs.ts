import * as t from 'io-ts';
import { characterCount, trimWhiteSpace } from '../../domain/text.js';
import { checked } from '../config/codecs.js';

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

/** A value no request may give: for a header that means something elsewhere but not here. */
export const absent = (why: string) =>
  described(
    new t.Type<never, string, unknown>(
      `absent (${why})`,
      (_u): _u is never => false,
      (u, c) => t.failure(u, c),
      (never) => never,
    ),
    { not: {} },
  );

/** As `codec`, or null: how a body field of an update says "none any more". */
export const orNull = <A>(codec: Described<t.Type<A, A, unknown>>): Described<t.Type<A | null, A | null, unknown>> =>
  described(
    checked(`null, or ${codec.name}`, (u): u is A | null => u === null || codec.is(u)),
    { anyOf: [codec.jsonSchema, { type: 'null' }] },
  );

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

/**
 * Text matching a pattern; `name` says what it is, as in "expected <name>". A pattern that needs
 * the `u` flag (`\p{L}`, code points rather than UTF-16 units) is left out of the document and
 * checked here alone: JSON Schema reads a pattern with that flag, but Swagger UI's "Try it out"
 * reads it without, and then refused every dictionary word. The other patterns are written to
 * read the same either way (tests/http/openapi-patterns.test.ts evaluates each both ways).
 */
export const matching = (pattern: RegExp, name: string): Described<t.Type<string, string, unknown>> =>
  described(
    new t.Type<string, string, unknown>(
      name,
      (u): u is string => typeof u === 'string' && pattern.test(u),
      (u, c) => (typeof u === 'string' && pattern.test(u) ? t.success(u) : t.failure(u, c)),
      t.identity,
    ),
    /[uv]/.test(pattern.flags) ? { type: 'string' } : { type: 'string', pattern: pattern.source },
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
  return described(checked(name, is), { type: 'string', enum: values });
};

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
  return described(checked(`a string of at most ${max} characters`, ok), { type: 'string', maxLength: max });
};

const MAX_LISTED_NAME_LENGTH = 100;

/** A list of at most `max` short strings (100 characters each), such as permission names. */
export const names = (max: number): Described<t.Type<string[], string[], unknown>> => {
  const ok = (u: unknown): u is string[] =>
    Array.isArray(u) &&
    u.length <= max &&
    u.every((s) => typeof s === 'string' && characterCount(s) <= MAX_LISTED_NAME_LENGTH);
  return described(checked(`a list of at most ${max} names`, ok), {
    type: 'array',
    maxItems: max,
    items: { type: 'string', maxLength: MAX_LISTED_NAME_LENGTH },
  });
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

/** A date (`2026-11-26`, midnight UTC) or a date and time with its offset (`2026-11-26T13:00:00Z`, `…+01:00`). */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,3})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;

/** The instant the text names, or undefined: a day that its month lacks (`02-30`) is no date. */
function instantOf(u: unknown): number | undefined {
  if (typeof u !== 'string') return undefined;
  const match = ISO_INSTANT.exec(u);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1970 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  const ms = Date.parse(u);
  return Number.isNaN(ms) ? undefined : ms;
}

/** An instant in ISO 8601, decoded to milliseconds since the epoch. */
export const isoInstant = described(
  new t.Type<number, string, unknown>(
    'an ISO 8601 date (2026-11-26) or date and time with offset (2026-11-26T13:00:00Z)',
    (u): u is number => typeof u === 'number',
    (u, c) => {
      const ms = instantOf(u);
      return ms === undefined ? t.failure(u, c) : t.success(ms);
    },
    (ms) => new Date(ms).toISOString(),
  ),
  { type: 'string', pattern: ISO_INSTANT.source },
);
