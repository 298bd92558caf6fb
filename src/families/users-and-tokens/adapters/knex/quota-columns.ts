import type { Quota, QuotaPeriod } from '../../../../domain/identity/quota.js';
import { toNumber } from '../../../../platform/persistence/columns.js';

/** A quota as its two columns, both null for none: users and tokens store it alike. */
export const quotaColumns = (quota: Quota | null): { quota_requests: number | null; quota_per: string | null } => ({
  quota_requests: quota?.requests ?? null,
  quota_per: quota?.per ?? null,
});

export const toQuota = (requests: number | string | null, per: string | null): Quota | null =>
  requests === null || per === null ? null : { requests: toNumber(requests), per: per as QuotaPeriod };
