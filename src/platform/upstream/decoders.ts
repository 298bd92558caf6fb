import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';

/**
 * An array whose elements of the wrong shape are left out instead of failing the whole answer:
 * one odd entry from an upstream should not hide the good ones. `onDropped` hears of each.
 */
export function keepingValid<A>(
  element: t.Decoder<unknown, A>,
  onDropped: (index: number) => void,
): t.Decoder<unknown, A[]> {
  return new t.Type<A[], unknown, unknown>(
    `keepingValid(${element.name})`,
    (u): u is A[] => Array.isArray(u),
    (u, context) => {
      if (!Array.isArray(u)) return t.failure(u, context, 'expected an array');
      const kept: A[] = [];
      u.forEach((candidate: unknown, index) => {
        const decoded = element.decode(candidate);
        if (E.isRight(decoded)) kept.push(decoded.right);
        else onDropped(index);
      });
      return t.success(kept);
    },
    t.identity,
  );
}

/** A string that is an absolute http(s) URL. */
export const AbsoluteHttpUrl = new t.Type<string, string, unknown>(
  'an absolute http(s) URL',
  (u): u is string => typeof u === 'string' && isAbsoluteHttpUrl(u),
  (u, context) => (typeof u === 'string' && isAbsoluteHttpUrl(u) ? t.success(u) : t.failure(u, context)),
  t.identity,
);

function isAbsoluteHttpUrl(text: string): boolean {
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
}
