import type { TokenChanges, TokenInsertResult, TokenStore, TokenUsage } from '../../domain/tokens/ports.js';
import type { TokenRecord } from '../../../../domain/identity/token.js';
import { MemoryTables } from './memory-tables.js';

/** Token records in a Map: for tests and for running with `storage: "memory"`. */
export class MemoryTokenStore implements TokenStore {
  constructor(private readonly tables = new MemoryTables()) {}

  async insert(record: TokenRecord, maxLiveTokens?: number): Promise<TokenInsertResult> {
    if (this.tables.tokens.has(record.id)) return { inserted: false, conflict: 'id' };
    if (this.tables.tokenIdBySecretHash.has(record.secretHash)) return { inserted: false, conflict: 'secretHash' };
    let live = 0;
    for (const other of this.tables.tokens.values()) {
      if (other.license === record.license) return { inserted: false, conflict: 'license' };
      if (other.userId === record.userId && (other.expiresAt === null || other.expiresAt > record.createdAt)) live += 1;
    }
    if (record.issuedThrough !== null && !this.tables.tokens.has(record.issuedThrough))
      return { inserted: false, refused: 'issuedThroughGone' };
    if (maxLiveTokens !== undefined && live >= maxLiveTokens) return { inserted: false, refused: 'liveTokenLimit' };
    this.tables.tokens.set(record.id, {
      ...record,
      scopes: [...record.scopes],
      rateLimit: record.rateLimit && { ...record.rateLimit },
    });
    this.tables.tokenIdBySecretHash.set(record.secretHash, record.id);
    return { inserted: true };
  }

  async findBySecretHash(secretHash: string): Promise<TokenRecord | undefined> {
    const id = this.tables.tokenIdBySecretHash.get(secretHash);
    return id === undefined ? undefined : this.tables.tokens.get(id);
  }

  async findById(id: string): Promise<TokenRecord | undefined> {
    return this.tables.tokens.get(id);
  }

  async listByUser(userId: string): Promise<TokenRecord[]> {
    return [...this.tables.tokens.values()].filter((t) => t.userId === userId).sort(newestFirst);
  }

  async update(id: string, changes: TokenChanges): Promise<TokenRecord | undefined> {
    const record = this.tables.tokens.get(id);
    if (!record) return undefined;
    const updated = { ...record, disabled: changes.disabled ?? record.disabled, name: changes.name ?? record.name };
    this.tables.tokens.set(id, updated);
    return updated;
  }

  async delete(id: string): Promise<boolean> {
    return this.tables.deleteToken(id);
  }

  async recordUsage(usages: readonly TokenUsage[]): Promise<void> {
    for (const { tokenId, uses, lastUsedAt } of usages) {
      const record = this.tables.tokens.get(tokenId);
      if (!record) continue;
      this.tables.tokens.set(tokenId, {
        ...record,
        uses: record.uses + uses,
        lastUsedAt: Math.max(record.lastUsedAt ?? 0, lastUsedAt),
      });
    }
  }
}

export const newestFirst = (a: TokenRecord, b: TokenRecord): number =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
