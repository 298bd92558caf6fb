/** How many requests a token, or a user across all of their tokens, may make in each UTC day or calendar month. */
export interface Quota {
  readonly requests: number;
  readonly per: QuotaPeriod;
}

export type QuotaPeriod = 'day' | 'month';
export const QUOTA_PERIODS: readonly QuotaPeriod[] = ['day', 'month'];

/** A billion requests a period: beyond anything a quota is meant to allow, still a safe integer in every store. */
export const MAX_QUOTA_REQUESTS = 1_000_000_000;

export const isQuota = (quota: Quota): boolean =>
  Number.isInteger(quota.requests) &&
  quota.requests >= 1 &&
  quota.requests <= MAX_QUOTA_REQUESTS &&
  QUOTA_PERIODS.includes(quota.per);

const QUOTA_PATTERN = /^([1-9][0-9]{0,9})\/(day|month)$/;

/** A quota as the CLI takes it, `1000/day` or `50000/month`; undefined when it is not one. */
export function parseQuota(text: string): Quota | undefined {
  const match = QUOTA_PATTERN.exec(text);
  if (!match) return undefined;
  const quota = { requests: Number(match[1]), per: match[2] as QuotaPeriod };
  return isQuota(quota) ? quota : undefined;
}

export const describeQuota = ({ requests, per }: Quota): string => `${requests} requests per ${per}`;

/** The most days a calendar month has: a daily quota is within a monthly one only if 31 such days are. */
const LONGEST_MONTH_DAYS = 31;

/**
 * Whether `quota` allows no more than `ceiling` (null: no quota at all) in any day and in any
 * month: a monthly quota may be spent in one day, so it must fit in a daily ceiling whole, and a
 * daily one is spent up to 31 times in a month.
 */
export function withinQuota(quota: Quota | null, ceiling: Quota | null): boolean {
  if (ceiling === null) return true;
  if (quota === null) return false;
  if (quota.per === ceiling.per || quota.per === 'month') return quota.requests <= ceiling.requests;
  return quota.requests * LONGEST_MONTH_DAYS <= ceiling.requests;
}

/** The period, in UTC, that the moment `now` falls in: its first millisecond and the first of the next one. */
export function quotaPeriodAt(now: number, per: QuotaPeriod): { readonly startsAt: number; readonly endsAt: number } {
  if (per === 'day') {
    const startsAt = now - (((now % 86_400_000) + 86_400_000) % 86_400_000);
    return { startsAt, endsAt: startsAt + 86_400_000 };
  }
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { startsAt: Date.UTC(year, month, 1), endsAt: Date.UTC(year, month + 1, 1) };
}
