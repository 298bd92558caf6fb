import { identifier } from '../../../../domain/identifier.js';
import type { TokenRecord } from '../../../../domain/identity/token.js';

export type TokenInsertResult =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly conflict: 'id' | 'secretHash' | 'license' }
  /** The owner already holds the most live tokens allowed, or the token it was minted through is gone. */
  | { readonly inserted: false; readonly refused: 'liveTokenLimit' | 'issuedThroughGone' };

/** What may change of a token after it was issued: whether it is refused, and its label. */
export interface TokenChanges {
  readonly disabled?: boolean;
  readonly name?: string;
}

/** Uses of one token since the last time they were written. */
export interface TokenUsage {
  readonly tokenId: string;
  readonly uses: number;
  readonly lastUsedAt: number;
}

/**
 * Where token records live. Methods reject only on outages; "not found" and "duplicate"
 * are values.
 */
export interface TokenStore {
  /**
   * Stores the token unless, in the same step, its owner already holds `maxLiveTokens` tokens that
   * have not expired at its `createdAt` (two concurrent inserts for one owner never both pass), or
   * the token it was minted through no longer exists (nothing ever hangs on a deleted token).
   */
  insert(record: TokenRecord, maxLiveTokens?: number): Promise<TokenInsertResult>;
  findBySecretHash(secretHash: string): Promise<TokenRecord | undefined>;
  findById(id: string): Promise<TokenRecord | undefined>;
  /** Newest first. */
  listByUser(userId: string): Promise<TokenRecord[]>;
  /** Changes what is given and answers the record as it now is; undefined for an unknown id. */
  update(id: string, changes: TokenChanges): Promise<TokenRecord | undefined>;
  /** Deletes the token and, in the same step, every token minted through it, however far down; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Adds the uses to each token's count and moves `lastUsedAt` forward; unknown ids are skipped. */
  recordUsage(usages: readonly TokenUsage[]): Promise<void>;
}
export const TokenStore = identifier<TokenStore>('TokenStore');
