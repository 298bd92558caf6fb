import type { Clock } from '../../../domain/ports.js';
import type { UsageHistory } from './ports.js';
import { bucketStart, HOUR_MS, statusClassOf, type StatusClass, type UsageCount } from './usage.js';

/** Counts one write of a flush takes: about a quarter of a second's work for the database. */
export const FLUSH_BATCH_COUNTS = 5_000;

interface Counting {
  readonly tokenId: string;
  readonly userId: string;
  readonly operation: string;
  readonly status: StatusClass;
  readonly hour: number;
  count: number;
}

/**
 * Counts requests made with a token in memory, by token, operation, status class and hour, and
 * writes them in one batch now and then: a request costs no database write. A batch the store
 * refuses is kept and added to the next one.
 */
export class UsageMeter {
  private pending = new Map<string, Counting>();

  constructor(
    private readonly history: UsageHistory,
    private readonly clock: Clock,
  ) {}

  /** Called on every answered request made with a token: a map lookup and an addition. */
  record(tokenId: string, userId: string, operation: string, status: number): void {
    const hour = bucketStart(this.clock.now(), HOUR_MS);
    const statusClass = statusClassOf(status);
    const key = `${hour}\u0000${tokenId}\u0000${operation}\u0000${statusClass}`;
    const counting = this.pending.get(key);
    if (counting) counting.count += 1;
    else this.pending.set(key, { tokenId, userId, operation, status: statusClass, hour, count: 1 });
  }

  /** How many distinct counts wait to be written. */
  get unwrittenCounts(): number {
    return this.pending.size;
  }

  /**
   * Writes what was counted, in batches of at most `batchSize` so that each write keeps within
   * the database's call deadline; if the store fails, what was not written is kept for the next
   * flush and the failure thrown.
   */
  async flush(batchSize = FLUSH_BATCH_COUNTS): Promise<void> {
    if (this.pending.size === 0) return;
    const entries = [...this.pending];
    this.pending = new Map();
    for (let start = 0; start < entries.length; start += batchSize) {
      const batch = entries.slice(start, start + batchSize);
      try {
        await this.history.record(batch.map(([, counting]): UsageCount => ({ ...counting })));
      } catch (error) {
        for (const [key, counting] of entries.slice(start)) {
          const later = this.pending.get(key);
          if (later) later.count += counting.count;
          else this.pending.set(key, counting);
        }
        throw error;
      }
    }
  }
}
