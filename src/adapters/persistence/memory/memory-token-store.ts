import type { TokenInsertResult, TokenStore } from '../../../domain/tokens/ports.js';
import type { TokenRecord } from '../../../domain/tokens/token.js';

/** Token records in a Map: for tests and for running with `storage: "memory"`. */
export class MemoryTokenStore implements TokenStore {
  private readonly byId = new Map<string, TokenRecord>();
  private readonly idBySecretHash = new Map<string, string>();

  async insert(record: TokenRecord): Promise<TokenInsertResult> {
    if (this.byId.has(record.id)) return { inserted: false, conflict: 'id' };
    if (this.idBySecretHash.has(record.secretHash)) return { inserted: false, conflict: 'secretHash' };
    for (const other of this.byId.values()) {
      if (other.license === record.license) return { inserted: false, conflict: 'license' };
    }
    this.byId.set(record.id, { ...record, scopes: [...record.scopes] });
    this.idBySecretHash.set(record.secretHash, record.id);
    return { inserted: true };
  }

  async findBySecretHash(secretHash: string): Promise<TokenRecord | undefined> {
    const id = this.idBySecretHash.get(secretHash);
    return id === undefined ? undefined : this.byId.get(id);
  }

  async findById(id: string): Promise<TokenRecord | undefined> {
    return this.byId.get(id);
  }

  async listByUser(userId: string): Promise<TokenRecord[]> {
    return [...this.byId.values()].filter((t) => t.userId === userId).sort(newestFirst);
  }

  async delete(id: string): Promise<boolean> {
    const record = this.byId.get(id);
    if (!record) return false;
    this.byId.delete(id);
    this.idBySecretHash.delete(record.secretHash);
    return true;
  }
}

export const newestFirst = (a: TokenRecord, b: TokenRecord): number => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
