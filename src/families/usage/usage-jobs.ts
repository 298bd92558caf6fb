import type { Logger } from 'pino';
import type { Clock } from '../../domain/ports.js';
import { HourlyCleanup } from '../../platform/hourly-cleanup.js';
import type { UsageHistory } from './domain/ports.js';
import { bucketStart, DAY_MS } from './domain/usage.js';

/** Hourly rows one compaction step moves: a step keeps well within the database's call deadline. */
export const COMPACTION_STEP_ROWS = 10_000;

/**
 * Sums the hours older than the retention into days, at the start and every hour after: the
 * hours of a day go together once the whole day is past the retention.
 */
export const usageCompaction = (history: UsageHistory, clock: Clock, retentionDays: number, logger: Logger) =>
  new HourlyCleanup(
    'usage history compaction',
    async () =>
      (await history.compact(bucketStart(clock.now() - retentionDays * DAY_MS, DAY_MS), COMPACTION_STEP_ROWS)) ===
      COMPACTION_STEP_ROWS,
    'could not sum old usage hours into days',
    logger,
  );
