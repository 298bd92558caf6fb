import { randomBytes } from 'node:crypto';
import type { TokenRecord } from '../../../../domain/identity/token.js';
import type { User } from '../../../../domain/identity/user.js';

/**
 * The rows the in-memory stores share, so that deleting a user takes its tokens with it as the
 * SQL schema's ON DELETE CASCADE does.
 */
export class MemoryTables {
  readonly users = new Map<string, User>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly tokenIdBySecretHash = new Map<string, string>();
  /** Lives as long as the rows: a cursor outlives neither. */
  readonly listingSecret = randomBytes(32);

  /** Deletes the token and every token minted through it, however far down. */
  deleteToken(id: string): boolean {
    const record = this.tokens.get(id);
    if (!record) return false;
    this.tokens.delete(id);
    this.tokenIdBySecretHash.delete(record.secretHash);
    for (const hanging of [...this.tokens.values()]) if (hanging.issuedThrough === id) this.deleteToken(hanging.id);
    return true;
  }
}
