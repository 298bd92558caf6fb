import * as t from 'io-ts';
import { AUDIT_ACTIONS } from '../../domain/audit.js';
import { isoInstant, oneOf, text } from '../../platform/http/codecs.js';
import { optional, pageQuery } from '../../platform/http/fields.js';
import { defineRoute, jsonOf, type Route } from '../../platform/http/route-table.js';
import { AUDIT_CURSOR, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE, type ReadAudit } from './domain/read-audit.js';

const nullableString = t.union([t.string, t.null]);

/** An entry as clients see it (`AuditEntryView`). */
const auditEntryView = t.strict({
  id: t.string,
  at: t.string,
  action: t.keyof(Object.fromEntries(AUDIT_ACTIONS.map((action) => [action, null])) as Record<string, null>),
  actor: t.strict({
    uid: nullableString,
    username: nullableString,
    tokenId: nullableString,
    via: t.keyof({ http: null, cli: null, config: null }),
  }),
  target: t.strict({
    type: t.keyof({ user: null, token: null, features: null }),
    id: nullableString,
    label: nullableString,
  }),
  changes: t.record(
    t.string,
    t.union([t.strict({ old: t.unknown, new: t.unknown }), t.strict({ changed: t.literal(true) })]),
  ),
  address: nullableString,
  requestId: nullableString,
  outcome: t.keyof({ success: null, failure: null }),
});

const auditPage = t.strict({ entries: t.readonlyArray(auditEntryView), nextCursor: nullableString });

/** Users by uid and tokens by id, as the trail names them: longer than either, so that neither is refused. */
const someId = text(1, 64);

export function auditRoutes(readAudit: ReadAudit): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/audit',
      permission: null,
      family: 'Audit',
      summary:
        'The audit trail, newest first: every change to users and tokens (with the fields changed, old and new, never a secret) ' +
        'and every password login checked, by whom, from where; everybody’s with Audit::Read, otherwise what you did ' +
        'and what was done to you and your tokens. Entries older than audit.retentionDays are removed',
      query: {
        actor: optional(someId, 'only what this user (uid) did'),
        target: optional(someId, 'only what was done to this user (uid) or token (id)'),
        action: optional(oneOf(AUDIT_ACTIONS, AUDIT_ACTIONS.join(', ')), 'only this action'),
        from: optional(isoInstant, 'only entries at or after this instant'),
        to: optional(isoInstant, 'only entries before this instant'),
        ...pageQuery('entries', { max: MAX_AUDIT_PAGE, byDefault: DEFAULT_AUDIT_PAGE, cursor: AUDIT_CURSOR }),
      },
      response: auditPage,
      handle: async ({ query, actor }) => jsonOf(await readAudit.list(actor, query)),
    }),
  ];
}
