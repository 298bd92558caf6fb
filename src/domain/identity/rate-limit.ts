/** How many requests a token may make in each window of `perSeconds` seconds. */
export interface RateLimit {
  readonly requests: number;
  readonly perSeconds: number;
}

/** A billion requests a window: beyond anything a limit is meant to allow, still a safe integer in every store. */
export const MAX_RATE_LIMIT_REQUESTS = 1_000_000_000;
/** A day: the longest window a counter is kept for. */
export const MAX_RATE_LIMIT_WINDOW_SECONDS = 86_400;

/** `<requests>/<seconds>`, as the settings write a policy (`1000/10`). */
export const RATE_LIMIT_PATTERN = /^([1-9]\d{0,9})\/([1-9]\d{0,4})$/;

export const isRateLimit = (limit: RateLimit): boolean =>
  Number.isInteger(limit.requests) &&
  Number.isInteger(limit.perSeconds) &&
  limit.requests >= 1 &&
  limit.requests <= MAX_RATE_LIMIT_REQUESTS &&
  limit.perSeconds >= 1 &&
  limit.perSeconds <= MAX_RATE_LIMIT_WINDOW_SECONDS;

/** `1000/10` as a limit; undefined for anything else, or out of range. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = RATE_LIMIT_PATTERN.exec(text);
  if (!match) return undefined;
  const limit = { requests: Number(match[1]), perSeconds: Number(match[2]) };
  return isRateLimit(limit) ? limit : undefined;
}

export const describeRateLimit = ({ requests, perSeconds }: RateLimit): string =>
  `${requests} requests per ${perSeconds} s`;

/**
 * Whether `limit` allows no more than `ceiling` (null: no limit at all): no more requests in one
 * window, so no larger burst, and no higher rate over time (compared without division).
 */
export function withinRateLimit(limit: RateLimit, ceiling: RateLimit | null): boolean {
  if (ceiling === null) return true;
  return (
    limit.requests <= ceiling.requests && limit.requests * ceiling.perSeconds <= ceiling.requests * limit.perSeconds
  );
}
