import * as E from 'fp-ts/lib/Either.js';
import { callingTokenId } from '../../domain/identity/actor.js';
import { missingInput } from '../../domain/errors.js';
import { isoInstant, tokenId, userUid } from '../../platform/http/codecs.js';
import { optional } from '../../platform/http/fields.js';
import { defineRoute, jsonOf, type Route } from '../../platform/http/route-table.js';
import type { ReadUsage } from './domain/read-usage.js';
import { granularity, grouping, noUidHeader, usageView } from './usage-fields.js';

const rangeFields = {
  from: optional(
    isoInstant,
    'the start, down to its hour or day; default: 24 hours (by hour) or 30 days (by day) before to',
  ),
  to: optional(isoInstant, 'the end (exclusive), up to its hour or day; default: now'),
  by: optional(granularity, 'hour (at most 31 days) or day (at most 366); default: hour'),
  group: optional(grouping, 'one series per operation or per status class; default: one series'),
};

const ANSWER =
  'counts by token, operation (as the metrics name it), status class and hour, written every usage.flushIntervalMs; ' +
  'hours older than usage.retentionDays are summed into days (and answered by day only); buckets without requests are left out';

export function usageRoutes(readUsage: ReadUsage): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/token/usage',
      permission: null,
      family: 'Tokens',
      summary: `A token's requests over time: the calling token by default, any of yours, or anyone's with Tokens::Read; ${ANSWER}`,
      query: { id: optional(tokenId, 'the token id; default: the calling token'), ...rangeFields },
      headers: noUidHeader,
      response: usageView,
      errors: ['MissingQueryParameter', 'TokenNotFound'],
      handle: async ({ query: { id, ...request }, actor }) => {
        const token = id ?? callingTokenId(actor);
        return token === undefined
          ? E.left(missingInput('id'))
          : jsonOf(await readUsage.ofToken(actor, token, request));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/user/usage',
      permission: null,
      family: 'Users',
      summary: `A user's requests over time, summed over their tokens (deleted ones included): yours, or anyone's with Users::Read; ${ANSWER}`,
      query: rangeFields,
      headers: { 'x-uid': optional(userUid, 'the uid of the user; default: your own') },
      response: usageView,
      errors: ['UserNotFound', 'MissingHeader'],
      handle: async ({ query, headers, actor }) => {
        const uid = headers['x-uid'];
        const ref = uid === undefined ? { self: true as const, fieldNames: { uid: 'x-uid' } } : { uid };
        return jsonOf(await readUsage.ofUser(actor, ref, query));
      },
    }),
  ];
}
