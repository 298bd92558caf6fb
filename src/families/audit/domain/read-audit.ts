import * as E from 'fp-ts/lib/Either.js';
import type { AuditAction, AuditQuery, AuditTrail, StoredAuditEntry } from '../../../domain/audit.js';
import { invalidInput, type DomainError, type OutageError } from '../../../domain/errors.js';
import { actorHolds, actorUser, type Actor } from '../../../domain/identity/actor.js';
import { orOutage } from '../../../domain/outage.js';
import { checkPageLimit, pageOf, withLookahead } from '../../../domain/paging.js';
import { AuditPermission } from './permissions.js';

export const DEFAULT_AUDIT_PAGE = 20;
export const MAX_AUDIT_PAGE = 100;

/** What a caller asks: every part may be left out. */
export interface AuditRequest {
  /** Entries made by this user (uid). */
  readonly actor?: string;
  /** Entries about this user (uid) or token (id). */
  readonly target?: string;
  readonly action?: AuditAction;
  readonly from?: number;
  readonly to?: number;
  readonly limit?: number;
  /** The `nextCursor` of the page before. */
  readonly cursor?: string;
}

/** An entry as clients see it. */
export type AuditEntryView = Omit<StoredAuditEntry, 'at' | 'concerns'> & { readonly at: string };

export interface AuditPage {
  readonly entries: readonly AuditEntryView[];
  readonly nextCursor: string | null;
}

const AUDIT_TRAIL_DOWN: OutageError = { _tag: 'Unknown', details: 'audit trail unavailable' };

/** A cursor is the id of the last entry of the page before: the trail numbers entries as it writes them. */
export const AUDIT_CURSOR = /^[1-9][0-9]{0,15}$/;

export const viewOfAuditEntry = ({ concerns: _concerns, at, ...entry }: StoredAuditEntry): AuditEntryView => ({
  ...entry,
  at: new Date(at).toISOString(),
});

/**
 * Reads the audit trail newest first: everybody's with `Audit::Read` (the operator holds it), and
 * otherwise the entries the caller's user made or that are about them, with the filters applied
 * within those.
 */
export class ReadAudit {
  constructor(private readonly trail: AuditTrail) {}

  async list(actor: Actor, request: AuditRequest): Promise<E.Either<DomainError, AuditPage>> {
    const limit = request.limit ?? DEFAULT_AUDIT_PAGE;
    const wrongLimit = checkPageLimit(limit, MAX_AUDIT_PAGE);
    if (wrongLimit) return E.left(wrongLimit);
    if (request.from !== undefined && request.to !== undefined && request.from >= request.to)
      return E.left(invalidInput('from', 'from must be before to'));
    if (request.cursor !== undefined && !AUDIT_CURSOR.test(request.cursor))
      return E.left(invalidInput('cursor', 'cursor must be the nextCursor of a page before'));
    let ownedBy: AuditQuery['ownedBy'];
    if (!actorHolds(actor, AuditPermission.AuditRead)) {
      const user = actorUser(actor);
      // Only the operator has no user, and the operator holds every permission.
      if (user === undefined) return E.left({ _tag: 'NotAuthorized', permission: AuditPermission.AuditRead });
      ownedBy = { uid: user.uid, userId: user.id };
    }
    const found = await orOutage(
      this.trail.list({
        actor: request.actor,
        target: request.target,
        action: request.action,
        from: request.from,
        to: request.to,
        ownedBy,
        before: request.cursor,
        limit: withLookahead(limit),
      }),
      AUDIT_TRAIL_DOWN,
    );
    if (E.isLeft(found)) return found;
    const { rows, nextCursor } = pageOf(found.right, limit, (last) => last.id);
    return E.right({ entries: rows.map(viewOfAuditEntry), nextCursor });
  }
}
