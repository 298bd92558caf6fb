import type { AuditEntry } from '../../../../domain/audit.js';
import { identifier } from '../../../../domain/identifier.js';
import type { Quota } from '../../../../domain/identity/quota.js';
import type { TokenRecord } from '../../../../domain/identity/token.js';

export type TokenInsertResult =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly conflict: 'id' | 'secretHash' | 'license' }
  /** The owner already holds the most live tokens allowed, or the token it was minted through is gone. */
  | { readonly inserted: false; readonly refused: 'liveTokenLimit' | 'issuedThroughGone' };

/** What may change of a token after it was issued: whether it is refused, its label, and where it may be used from. */
export interface TokenChanges {
  readonly disabled?: boolean;
  readonly name?: string;
  /** null: from anywhere again. */
  readonly allowedAddresses?: readonly string[] | null;
  /** null: no quota of its own any more. */
  readonly quota?: Quota | null;
}

export type TokenRotationResult =
  | { readonly rotated: true; readonly previous: TokenRecord }
  | { readonly rotated: false; readonly refused: 'notFound' | 'alreadyRotated' | 'liveTokenLimit' };

/** Uses of one token since the last time they were written. */
export interface TokenUsage {
  readonly tokenId: string;
  readonly uses: number;
  readonly lastUsedAt: number;
}

/**
 * Where token records live. Methods reject only on outages; "not found" and "duplicate"
 * are values. A method that changes something takes the audit entry that reports the change and
 * writes it in the same step, when and only when the change is made.
 */
export interface TokenStore {
  /**
   * Stores the token unless, in the same step, its owner already holds `maxLiveTokens` live tokens
   * at its `createdAt`, neither expired nor past the end of a rotation's grace (two concurrent
   * inserts for one owner never both pass), or
   * the token it was minted through no longer exists (nothing ever hangs on a deleted token).
   */
  insert(record: TokenRecord, maxLiveTokens?: number, audit?: AuditEntry): Promise<TokenInsertResult>;
  findBySecretHash(secretHash: string): Promise<TokenRecord | undefined>;
  findById(id: string): Promise<TokenRecord | undefined>;
  /** Newest first. */
  listByUser(userId: string): Promise<TokenRecord[]>;
  /**
   * Tokens still in use (neither disabled nor replaced by a rotation) whose expiry falls after
   * `after` and at or before `until`, soonest first (then by id), at most `limit`: for the notices
   * of tokens about to expire.
   */
  expiringBetween(after: number, until: number, limit: number): Promise<TokenRecord[]>;
  /**
   * Changes what is given and answers the record as it now is; undefined for an unknown id. No
   * change given: nothing is written, the entry included.
   */
  update(id: string, changes: TokenChanges, audit?: AuditEntry): Promise<TokenRecord | undefined>;
  /** Deletes the token and, in the same step, every token minted through it, however far down; false when there was none. */
  delete(id: string, audit?: AuditEntry): Promise<boolean>;
  /**
   * In one step, marks the token as replaced by `replacement` and stopping at `endsAt`, and stores
   * the replacement; a token rotated before, or by another call at the same moment, is refused and
   * nothing is stored, and so is a replacement that would make its owner hold more than
   * `maxLiveTokens` live tokens, the token it replaces not counted (it is ending). Rejects (on a
   * duplicate id, secret hash or licence too) only as an outage would.
   */
  rotate(
    previousId: string,
    replacement: TokenRecord,
    endsAt: number,
    maxLiveTokens?: number,
    audit?: AuditEntry,
  ): Promise<TokenRotationResult>;
  /** Adds the uses to each token's count and moves `lastUsedAt` forward; unknown ids are skipped. */
  recordUsage(usages: readonly TokenUsage[]): Promise<void>;
}
export const TokenStore = identifier<TokenStore>('TokenStore');

/** The address arithmetic the token rules need, which the domain leaves to an adapter. */
export interface ClientNetworks {
  /** Whether every network of `inner` (CIDRs, as decoded) lies inside one of `outer`. */
  within(inner: readonly string[], outer: readonly string[]): boolean;
}
export const ClientNetworks = identifier<ClientNetworks>('ClientNetworks');

/** Without the arithmetic at hand: a network lies within a list only if the list names it as such. */
export const LISTED_NETWORKS_ONLY: ClientNetworks = {
  within: (inner, outer) => inner.every((network) => outer.includes(network)),
};
