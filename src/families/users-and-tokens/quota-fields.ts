import * as t from 'io-ts';
import { isQuota, MAX_QUOTA_REQUESTS, QUOTA_PERIODS, type Quota } from '../../domain/identity/quota.js';
import { checked } from '../../platform/config/codecs.js';
import { described, orNull } from '../../platform/http/codecs.js';

/** The codecs of a quota, as token and user routes take and answer it. */

/** Exactly `requests` and `per`, in range: a stray field is refused, never dropped. */
const isQuotaObject = (u: unknown): u is Quota =>
  typeof u === 'object' &&
  u !== null &&
  !Array.isArray(u) &&
  Object.keys(u).length === 2 &&
  'requests' in u &&
  'per' in u &&
  isQuota(u as Quota);

const quotaSchema = {
  type: 'object',
  required: ['requests', 'per'],
  additionalProperties: false,
  properties: {
    requests: { type: 'integer', minimum: 1, maximum: MAX_QUOTA_REQUESTS },
    per: { type: 'string', enum: [...QUOTA_PERIODS] },
  },
};
const QUOTA_TEXT = `{requests: 1 to ${MAX_QUOTA_REQUESTS}, per: "day" or "month"}`;

/** `{requests, per}`: a whole number of requests in each UTC day or calendar month. */
export const quotaField = described(checked(QUOTA_TEXT, isQuotaObject), quotaSchema);

/** As `quotaField`, or null: no quota any more. */
export const quotaOrNull = orNull(quotaField);

/** A quota as answered, or null where there is none. */
export const quotaView = t.union([
  t.strict({ requests: t.number, per: t.union([t.literal('day'), t.literal('month')]) }),
  t.null,
]);
