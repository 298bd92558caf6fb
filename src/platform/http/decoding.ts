import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { InputError, PlacedInputError } from '../../domain/errors.js';
import {
  placed,
  type AdditionalBody,
  type BodySchema,
  type Decoded,
  type Field,
  type HeaderSchema,
  type InputPlace,
  type ParamSchema,
  type QuerySchema,
  type Schema,
} from './fields.js';
import type { QueryParameters } from './query-string.js';
import { echoed, illFormedPathSegments } from './well-formed.js';

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

const givenOnce = (name: string, value: unknown): string | undefined =>
  typeof value === 'string' ? undefined : `${name} must be given once`;

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
