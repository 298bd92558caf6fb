import type { Logger } from 'pino';
import type { AuditTrail } from '../../domain/audit.js';
import type { Clock } from '../../domain/ports.js';
import { HourlyCleanup } from '../../platform/hourly-cleanup.js';

const DAY_MS = 86_400_000;
/** Entries one step removes: a step keeps well within the database's call deadline. */
export const PRUNING_STEP_ENTRIES = 5_000;

/** Removes the entries older than the retention, at the start and every hour after. */
export const auditPruning = (trail: AuditTrail, clock: Clock, retentionDays: number, logger: Logger) =>
  new HourlyCleanup(
    'audit trail pruning',
    async () =>
      (await trail.removeOlderThan(clock.now() - retentionDays * DAY_MS, PRUNING_STEP_ENTRIES)) ===
      PRUNING_STEP_ENTRIES,
    'could not remove old audit entries',
    logger,
  );
