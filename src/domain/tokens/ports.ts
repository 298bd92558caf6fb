import type { TokenRecord } from './token.js';

export type TokenInsertResult = { readonly inserted: true } | { readonly inserted: false; readonly conflict: 'id' | 'secretHash' | 'license' };

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
  insert(record: TokenRecord): Promise<TokenInsertResult>;
  findBySecretHash(secretHash: string): Promise<TokenRecord | undefined>;
  findById(id: string): Promise<TokenRecord | undefined>;
  /** Newest first. */
  listByUser(userId: string): Promise<TokenRecord[]>;
  /** Changes what is given and answers the record as it now is; undefined for an unknown id. */
  update(id: string, changes: TokenChanges): Promise<TokenRecord | undefined>;
  delete(id: string): Promise<boolean>;
  /** Adds the uses to each token's count and moves `lastUsedAt` forward; unknown ids are skipped. */
  recordUsage(usages: readonly TokenUsage[]): Promise<void>;
}
export const TokenStore = Symbol.for('TokenStore');
