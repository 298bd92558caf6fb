import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { DomainError } from '../../domain/errors.js';

/** One query parameter: an io-ts codec over its single string value, and whether it must be there. */
export interface QueryField<A> {
  readonly codec: t.Decoder<string, A>;
  readonly required: boolean;
  readonly description: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each field keeps its own decoded type
export type QuerySchema = Record<string, QueryField<any>>;

export type QueryOf<S extends QuerySchema> = {
  [K in keyof S]: S[K] extends QueryField<infer A> ? (S[K]['required'] extends true ? A : A | undefined) : never;
};

export const required = <A>(codec: t.Decoder<string, A>, description: string) =>
  ({ codec, required: true, description }) as const;

export const optional = <A>(codec: t.Decoder<string, A>, description: string) =>
  ({ codec, required: false, description }) as const;

/** Text of at most `maxBytes` bytes once encoded as UTF-8. */
export const utf8UpTo = (maxBytes: number): t.Type<string, string, string> =>
  new t.Type<string, string, string>(
    `text of at most ${maxBytes} UTF-8 bytes`,
    (u): u is string => typeof u === 'string' && Buffer.byteLength(u) <= maxBytes,
    (s, c) => (Buffer.byteLength(s) <= maxBytes ? t.success(s) : t.failure(s, c, `longer than ${maxBytes} bytes`)),
    t.identity,
  );

/**
 * Decodes Koa's query object against a schema. Koa 3 gives `string | string[]`: a repeated
 * parameter is invalid, never silently reduced to one of its values. Missing parameters are
 * reported before invalid ones.
 */
export function decodeQuery<S extends QuerySchema>(
  schema: S,
  query: Record<string, string | string[] | undefined>,
): E.Either<DomainError, QueryOf<S>> {
  const missing: string[] = [];
  const invalid: string[] = [];
  const reasons: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema)) {
    const raw = query[name];
    if (raw === undefined) {
      if (field.required) missing.push(name);
      continue;
    }
    if (typeof raw !== 'string') {
      invalid.push(name);
      reasons.push(`${name} must be given once`);
      continue;
    }
    const decoded = field.codec.decode(raw);
    if (E.isLeft(decoded)) {
      invalid.push(name);
      reasons.push(`${name} must be ${field.codec.name}`);
      continue;
    }
    out[name] = decoded.right;
  }
  if (missing.length > 0) return E.left({ _tag: 'MissingQueryParameter', names: missing });
  if (invalid.length > 0) return E.left({ _tag: 'InvalidQueryParameter', names: invalid, details: reasons.join('; ') });
  return E.right(out as QueryOf<S>);
}
