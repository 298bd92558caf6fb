import type {
  TokenChanges,
  TokenInsertResult,
  TokenRotationResult,
  TokenStore,
  TokenUsage,
} from '../../domain/tokens/ports.js';
import type { TokenOrigin, TokenRecord } from '../../../../domain/identity/token.js';
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
    this.store(record);
    return { inserted: true };
  }

  /** A copy, so that nothing the caller keeps can change what is stored. */
  private store(record: TokenRecord): void {
    this.tables.tokens.set(record.id, {
      ...record,
      scopes: [...record.scopes],
      rateLimit: record.rateLimit && { ...record.rateLimit },
      quota: record.quota && { ...record.quota },
      allowedAddresses: record.allowedAddresses && [...record.allowedAddresses],
    });
    this.tables.tokenIdBySecretHash.set(record.secretHash, record.id);
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
    const updated = {
      ...record,
      disabled: changes.disabled ?? record.disabled,
      name: changes.name ?? record.name,
      allowedAddresses:
        changes.allowedAddresses === undefined
          ? record.allowedAddresses
          : changes.allowedAddresses && [...changes.allowedAddresses],
      quota: changes.quota === undefined ? record.quota : changes.quota && { ...changes.quota },
    };
    this.tables.tokens.set(id, updated);
    return updated;
  }

  async delete(id: string): Promise<boolean> {
    return this.tables.deleteToken(id);
  }

  async rotate(previousId: string, replacement: TokenRecord, endsAt: number): Promise<TokenRotationResult> {
    const previous = this.tables.tokens.get(previousId);
    if (!previous) return { rotated: false, refused: 'notFound' };
    if (previous.rotatedTo !== null) return { rotated: false, refused: 'alreadyRotated' };
    if (this.tables.tokens.has(replacement.id) || this.tables.tokenIdBySecretHash.has(replacement.secretHash))
      throw new Error('a rotated token’s replacement collides with a stored token');
    const rotated = { ...previous, rotatedTo: replacement.id, rotationEndsAt: endsAt };
    this.tables.tokens.set(previousId, rotated);
    this.store(replacement);
    return { rotated: true, previous: rotated };
  }

  async deleteByOrigin(userId: string, origin: TokenOrigin): Promise<string[]> {
    const ids = [...this.tables.tokens.values()]
      .filter((record) => record.userId === userId && record.origin === origin)
      .map((record) => record.id);
    for (const id of ids) this.tables.deleteToken(id);
    return ids;
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
