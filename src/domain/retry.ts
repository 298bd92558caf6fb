import type { Randomness } from './ports.js';

/** How queued work that failed for a passing reason waits before its next attempt. */
export interface RetrySchedule {
  /** The wait after the first failed attempt; it doubles with each further one, up to `retryMaxMs`. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

/**
 * The wait before attempt `attempts + 1` after `attempts` failed ones: exponential, capped, with
 * "equal jitter" (half of it fixed, half random), so that work failed together by one outage
 * does not all come back together. Mail and webhook deliveries both wait so.
 */
export function retryDelay(attempts: number, { retryBaseMs, retryMaxMs }: RetrySchedule, chance: number): number {
  const ceiling = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(attempts - 1, 40));
  return Math.round(ceiling / 2 + (ceiling / 2) * chance);
}

/** A number from 0 (included) to 1 (excluded) from the randomness port. */
export const chanceFrom = (randomness: Randomness): number => randomness.bytes(4).readUInt32BE(0) / 2 ** 32;
