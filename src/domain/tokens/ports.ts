import type { TokenRecord } from './token.js';

export type TokenInsertResult = { readonly inserted: true } | { readonly inserted: false; readonly conflict: 'id' | 'secretHash' | 'license' };

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
  delete(id: string): Promise<boolean>;
}
export const TokenStore = Symbol.for('TokenStore');
