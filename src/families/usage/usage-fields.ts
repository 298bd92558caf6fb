import * as t from 'io-ts';
import { absent, described, oneOf } from '../../platform/http/codecs.js';
import { optional } from '../../platform/http/fields.js';
import { GRANULARITIES, GROUPINGS } from './domain/usage.js';

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
