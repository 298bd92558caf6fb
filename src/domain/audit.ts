import { identifier } from './identifier.js';
import type { Actor } from './identity/actor.js';
import type { NewDomainEvent } from './events.js';

/** Where a request came from, as the audit trail records it: the client address and the request id. */
export interface RequestOrigin {
  readonly address: string | null;
  readonly requestId: string | null;
}

/**
 * How an actor reached the service: over HTTP, as the operator at the command line, or through
 * the configuration a server started with (feature switches).
 */
export type AuditVia = 'http' | 'cli' | 'config';

export interface AuditActor {
  /** Null for the operator, and for a login attempt nobody has been proved to make. */
  readonly uid: string | null;
  readonly username: string | null;
  /** The token the actor presented; null for a password and for the operator. */
  readonly tokenId: string | null;
  readonly via: AuditVia;
}

export type AuditTargetType = 'user' | 'token' | 'features';

export interface AuditTarget {
  readonly type: AuditTargetType;
  /** A user's uid or a token's id; null for a login attempt on an account that does not exist. */
  readonly id: string | null;
  /** What a person recognises it by at the time: a username, a token's name or prefix, a login as typed. */
  readonly label: string | null;
}

/** A value as the trail keeps it: plain JSON, never a secret. */
export type AuditValue =
  string | number | boolean | null | readonly AuditValue[] | { readonly [key: string]: AuditValue };

/** A field's old and new values, or, for a secret (a password), only that it changed. */
export type AuditChange = { readonly old: AuditValue; readonly new: AuditValue } | { readonly changed: true };
export type AuditChanges = Readonly<Record<string, AuditChange>>;

export type AuditOutcome = 'success' | 'failure';

/**
 * What the audit trail keeps of a change or a login attempt. The names of its actions:
 * `user.create`, `user.update`, `user.delete`, `token.create`, `token.update`, `token.delete`,
 * `token.rotate`, `login.password` and `features.update`.
 */
export interface AuditEntry {
  readonly at: number;
  readonly action: AuditAction;
  readonly actor: AuditActor;
  readonly target: AuditTarget;
  readonly changes: AuditChanges;
  readonly address: string | null;
  readonly requestId: string | null;
  readonly outcome: AuditOutcome;
  /**
   * The internal id of the user the entry is about: the target user, or the owner of the target
   * token (null for a login attempt on no account). Never shown: a user without `Audit::Read`
   * reads the entries they made or that are about them.
   */
  readonly concerns: string | null;
  /** The events the change announces, written in its transaction with this entry (see events.ts). */
  readonly events?: readonly NewDomainEvent[];
}

export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.delete',
  'token.create',
  'token.update',
  'token.delete',
  'token.rotate',
  'login.password',
  'features.update',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** An entry as stored: the store numbers entries in the order they were written, which is the trail's order. */
export interface StoredAuditEntry extends AuditEntry {
  readonly id: string;
}

/** Which entries to read, newest first; every filter given must hold. */
export interface AuditQuery {
  readonly actor?: string;
  /** A user's uid or a token's id. */
  readonly target?: string;
  readonly action?: AuditAction;
  /** Entries at or after this instant. */
  readonly from?: number;
  /** Entries before this instant. */
  readonly to?: number;
  /** Entries this user made (by uid) or that concern them (by internal id): a user reading their own. */
  readonly ownedBy?: { readonly uid: string; readonly userId: string };
  /** Only entries written before the entry with this id. */
  readonly before?: string;
  readonly limit: number;
}

/**
 * The audit trail. A change writes its entry in the same transaction as itself, through the store
 * that makes the change (each store's mutating methods take the entry), so that there is no change
 * without its entry and no entry without its change; `record` writes an entry that reports no
 * stored change (a login attempt). Methods reject only on outages.
 */
export interface AuditTrail {
  record(entry: AuditEntry): Promise<void>;
  list(query: AuditQuery): Promise<StoredAuditEntry[]>;
  /** Removes at most `limit` of the entries older than `before`, oldest first; answers how many it removed. */
  removeOlderThan(before: number, limit: number): Promise<number>;
}
export const AuditTrail = identifier<AuditTrail>('AuditTrail');

/** Who made a change, as the trail records them. */
export function auditActorOf(actor: Actor): AuditActor {
  switch (actor.kind) {
    case 'operator':
      return { uid: null, username: null, tokenId: null, via: 'cli' };
    case 'password':
      return { uid: actor.user.uid, username: actor.user.username, tokenId: null, via: 'http' };
    case 'principal':
      return {
        uid: actor.principal.user.uid,
        username: actor.principal.user.username,
        tokenId: actor.principal.token.id,
        via: 'http',
      };
  }
}

const sameValue = (a: AuditValue | undefined, b: AuditValue | undefined): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields of `next` that differ from `before`, with both values. A field `next` leaves out (or
 * gives as undefined) did not change. Never give a secret here: use `SECRET_CHANGED` for one.
 */
export function changesBetween(
  before: Readonly<Record<string, AuditValue>>,
  next: Readonly<Record<string, AuditValue | undefined>>,
): Record<string, AuditChange> {
  const changes: Record<string, AuditChange> = {};
  for (const [field, value] of Object.entries(next)) {
    if (value === undefined || sameValue(before[field], value)) continue;
    changes[field] = { old: before[field] ?? null, new: value };
  }
  return changes;
}

/** The change of a secret: that it changed, never its value nor its hash. */
export const SECRET_CHANGED: AuditChange = { changed: true };

/** The entry of a change `actor` made at `at`: by whom and from where, as the request tells. */
export function auditEntry(
  actor: Actor,
  at: number,
  action: AuditAction,
  target: AuditTarget,
  concerns: string | null,
  changes: AuditChanges = {},
): AuditEntry {
  const origin = actor.kind === 'operator' ? undefined : actor.origin;
  return {
    at,
    action,
    actor: auditActorOf(actor),
    target,
    changes,
    address: origin?.address ?? null,
    requestId: origin?.requestId ?? null,
    outcome: 'success',
    concerns,
  };
}
