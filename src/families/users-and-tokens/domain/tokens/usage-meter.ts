import type { TokenStore, TokenUsage } from './ports.js';

/**
 * Counts token uses in memory and writes them in one batch now and then, so that a request
 * costs no database write. Counts not yet written are added to what the store says when a
 * token is shown, and written at shutdown.
 */
export class TokenUsageMeter {
  private pending = new Map<string, { uses: number; lastUsedAt: number }>();

  constructor(private readonly tokens: TokenStore) {}

  record(tokenId: string, at: number): void {
    const entry = this.pending.get(tokenId);
    if (entry) {
      entry.uses += 1;
      entry.lastUsedAt = at;
    } else {
      this.pending.set(tokenId, { uses: 1, lastUsedAt: at });
    }
  }

  /** Uses counted here and not yet written. */
  unwritten(tokenId: string): { uses: number; lastUsedAt: number } | undefined {
    return this.pending.get(tokenId);
  }

  /** Writes what was counted; if the store fails, the counts are kept for the next flush. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const usages: TokenUsage[] = [...batch].map(([tokenId, { uses, lastUsedAt }]) => ({ tokenId, uses, lastUsedAt }));
    try {
      await this.tokens.recordUsage(usages);
    } catch (error) {
      for (const { tokenId, uses, lastUsedAt } of usages) {
        const later = this.pending.get(tokenId);
        this.pending.set(tokenId, { uses: uses + (later?.uses ?? 0), lastUsedAt: later?.lastUsedAt ?? lastUsedAt });
      }
      throw error;
    }
  }
}
