import type * as t from 'io-ts';
import { matching, numberWritten } from './codecs.js';
import type { InputError, PlacedInputError } from '../../domain/errors.js';

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

export const required = <I, A>(codec: t.Decoder<I, A>, description: string) =>
  ({ codec, required: true, description }) as const;
export const optional = <I, A>(codec: t.Decoder<I, A>, description: string) =>
  ({ codec, required: false, description }) as const;

/**
 * The query fields of a list read a page at a time (src/domain/paging.ts): `limit`, 1 to `max`
 * (at most 999) of `what`, and `cursor`, the `nextCursor` of the page before.
 */
export const pageQuery = (
  what: string,
  { max, byDefault, cursor }: { max: number; byDefault: number; cursor: RegExp },
) => ({
  limit: optional(
    numberWritten(/^[0-9]{1,3}$/, 1, max, `a whole number from 1 to ${max}`, 'integer'),
    `${what} per page; default ${byDefault}`,
  ),
  cursor: optional(matching(cursor, 'a cursor'), 'the nextCursor of the page before, with the same filters'),
});

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
