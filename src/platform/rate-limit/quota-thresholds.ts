import type { Logger } from 'pino';
import type { EventLog, NewDomainEvent } from '../../domain/events.js';
import type { Clock } from '../../domain/ports.js';
import type { QuotaThreshold } from './quotas.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** quota.threshold: once per quota, period and threshold, whichever instance counted the request that passed it. */
export const thresholdEvent = (threshold: QuotaThreshold, at: number): NewDomainEvent => ({
  type: 'quota.threshold',
  at,
  concerns: threshold.userId,
  key: `quota.threshold:${threshold.scope}:${threshold.id}:${threshold.startsAt}:${threshold.percent}`,
  data: {
    scope: threshold.scope,
    id: threshold.id,
    quota: { requests: threshold.quota.requests, per: threshold.quota.per },
    used: threshold.used,
    percent: threshold.percent,
    periodStartsAt: iso(threshold.startsAt),
    periodEndsAt: iso(threshold.endsAt),
  },
});

/**
 * Announces the quota thresholds requests pass, without holding them up: the request is answered
 * at once and the event is written beside it. A write that fails is logged and lost (the count
 * itself is not a stored change that could carry it in its transaction).
 */
export const announceQuotaThresholds =
  (events: EventLog, clock: Clock, logger: Logger) =>
  (thresholds: readonly QuotaThreshold[]): void => {
    const at = clock.now();
    events.append(thresholds.map((threshold) => thresholdEvent(threshold, at))).catch((error: unknown) => {
      logger.warn({ err: error }, 'quota.threshold events not written');
    });
  };
