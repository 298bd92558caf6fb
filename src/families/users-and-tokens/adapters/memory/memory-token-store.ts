import type {
  TokenChanges,
  TokenInsertResult,
  TokenRotationResult,
  TokenStore,
  TokenUsage,
} from '../../domain/tokens/ports.js';
import { endOf, type TokenRecord } from '../../../../domain/identity/token.js';
import { MemoryTables } from './memory-tables.js';
import type { AuditEntry } from '../../../../domain/audit.js';
import { MemoryAuditTrail } from '../../../../platform/audit/memory-audit-trail.js';

/** Token records in a Map: for tests and for running with `storage: "memory"`. */
export class MemoryTokenStore implements TokenStore {
  constructor(
    private readonly tables = new MemoryTables(),
    private readonly trail = new MemoryAuditTrail(),
  ) {}

  async insert(record: TokenRecord, maxLiveTokens?: number, audit?: AuditEntry): Promise<TokenInsertResult> {
    if (this.tables.tokens.has(record.id)) return { inserted: false, conflict: 'id' };
    if (this.tables.tokenIdBySecretHash.has(record.secretHash)) return { inserted: false, conflict: 'secretHash' };
    for (const other of this.tables.tokens.values())
      if (other.license === record.license) return { inserted: false, conflict: 'license' };
    const live = this.liveTokensOf(record.userId, record.createdAt);
    if (record.issuedThrough !== null && !this.tables.tokens.has(record.issuedThrough))
      return { inserted: false, refused: 'issuedThroughGone' };
    if (maxLiveTokens !== undefined && live >= maxLiveTokens) return { inserted: false, refused: 'liveTokenLimit' };
    this.store(record);
    this.trail.append(audit);
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

  /** The user's tokens live at `at`: neither expired nor past the end of a rotation's grace; `except` not counted. */
  private liveTokensOf(userId: string, at: number, except?: string): number {
    let live = 0;
    for (const other of this.tables.tokens.values())
      if (other.userId === userId && other.id !== except && (endOf(other) ?? Infinity) > at) live += 1;
    return live;
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

  async expiringBetween(after: number, until: number, limit: number): Promise<TokenRecord[]> {
    return [...this.tables.tokens.values()]
      .filter(
        (t) =>
          !t.disabled && t.rotatedTo === null && t.expiresAt !== null && t.expiresAt > after && t.expiresAt <= until,
      )
      .sort((a, b) => a.expiresAt! - b.expiresAt! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit);
  }

  async update(id: string, changes: TokenChanges, audit?: AuditEntry): Promise<TokenRecord | undefined> {
    const record = this.tables.tokens.get(id);
    if (!record) return undefined;
    if (Object.values(changes).every((value) => value === undefined)) return record;
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
    this.trail.append(audit);
    return updated;
  }

  async delete(id: string, audit?: AuditEntry): Promise<boolean> {
    if (!this.tables.deleteToken(id)) return false;
    this.trail.append(audit);
    return true;
  }

  async rotate(
    previousId: string,
    replacement: TokenRecord,
    endsAt: number,
    maxLiveTokens?: number,
    audit?: AuditEntry,
  ): Promise<TokenRotationResult> {
    const previous = this.tables.tokens.get(previousId);
    if (!previous) return { rotated: false, refused: 'notFound' };
    if (previous.rotatedTo !== null) return { rotated: false, refused: 'alreadyRotated' };
    if (
      maxLiveTokens !== undefined &&
      this.liveTokensOf(replacement.userId, replacement.createdAt, previousId) >= maxLiveTokens
    )
      return { rotated: false, refused: 'liveTokenLimit' };
    if (this.tables.tokens.has(replacement.id) || this.tables.tokenIdBySecretHash.has(replacement.secretHash))
      throw new Error('a rotated token’s replacement collides with a stored token');
    const rotated = { ...previous, rotatedTo: replacement.id, rotationEndsAt: endsAt };
    this.tables.tokens.set(previousId, rotated);
    this.store(replacement);
    this.trail.append(audit);
    return { rotated: true, previous: rotated };
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
