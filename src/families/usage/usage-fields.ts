import * as t from 'io-ts';
import { absent, oneOf } from '../../platform/http/codecs.js';
import { optional } from '../../platform/http/fields.js';
import { GRANULARITIES, GROUPINGS } from './domain/usage.js';

export const granularity = oneOf(GRANULARITIES, 'hour or day');
export const grouping = oneOf(GROUPINGS, 'operation or status');

/** A usage answer as clients see it (`UsageView`). */
export const usageView = t.strict({
  from: t.string,
  to: t.string,
  by: t.keyof({ hour: null, day: null }),
  series: t.readonlyArray(
    t.intersection([t.type({ at: t.string, count: t.number }), t.partial({ operation: t.string, status: t.string })]),
  ),
  total: t.number,
});

/**
 * `x-uid` on the token's usage, refused (400/9) rather than ignored, as on the other token
 * endpoints: a client naming a user there means something this endpoint does not do.
 */
export const noUidHeader = { 'x-uid': optional(absent('a token is named by id here'), 'refused here') };
