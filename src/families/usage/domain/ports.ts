import { identifier } from '../../../domain/identifier.js';
import type { UsageCount, UsagePoint, UsageQuery } from './usage.js';

/**
 * Where usage history lives: hourly counts, and days once the hours are old. Every method
 * rejects only on outages.
 */
export interface UsageHistory {
  /**
   * Adds each count to what is stored for its token, operation, status class and hour: several
   * instances write their own counts of the same hour, and the store keeps their sum.
   */
  record(counts: readonly UsageCount[]): Promise<void>;
  /**
   * Sums in buckets of `by` from `from` to `to` (exclusive), ordered by bucket then group; only
   * buckets with requests. By day, compacted days count beside the hours; by hour, only hours.
   */
  series(query: UsageQuery): Promise<UsagePoint[]>;
  /**
   * Sums at most `limit` hourly rows from before `before` (a day's start) into their days,
   * removing them, in one step that another instance may run at once without counting anything
   * twice; answers how many were removed (fewer than `limit`: none are left). A step is bounded
   * so that it keeps within the database's call deadline however much history waits.
   */
  compact(before: number, limit: number): Promise<number>;
}
export const UsageHistory = identifier<UsageHistory>('UsageHistory');
