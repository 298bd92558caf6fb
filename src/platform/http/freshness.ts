import type { Fetched } from '../../domain/fetched.js';
import { matching, oneOf } from './codecs.js';
import { optional, required } from './fields.js';
import type { JsonPartEncodedOnce } from './json-part-once.js';
import type { JsonBody, PreparedBody } from './route-table.js';

const STALE_WARNING = '110 - "Response is Stale"';

/**
 * The headers of an answer fetched from an outside service, for a route row's `responseHeaders`:
 * `X-Cache` always, and RFC 7234's `Warning` on a stale one.
 */
export const freshnessHeaders = {
  'x-cache': required(
    oneOf(['fresh', 'stale'], 'fresh or stale'),
    'stale when the outside service could not be asked and the answer comes from cache',
  ),
  warning: optional(matching(/^110 - "Response is Stale"$/, STALE_WARNING), 'sent with a stale answer'),
};

const FRESH = { 'X-Cache': 'fresh' };
const STALE = { 'X-Cache': 'stale', Warning: STALE_WARNING };

/** A fetched value as JSON, marked fresh or stale. */
export const fetchedJson = <A>({ value, stale }: Fetched<A>): JsonBody<A> => ({
  contentType: 'application/json',
  body: value,
  headers: stale ? STALE : FRESH,
});

/** The same, for an answer whose largest part is kept and answered many times: its bytes made once and kept with that part (see JsonPartEncodedOnce). */
export const fetchedJsonEncoding =
  <Field extends string>(encoder: JsonPartEncodedOnce<Field>) =>
  <A extends { readonly [F in Field]: object }>({ value, stale }: Fetched<A>): PreparedBody => ({
    contentType: 'application/json',
    body: encoder.encode(value),
    prepared: true,
    headers: stale ? STALE : FRESH,
  });
