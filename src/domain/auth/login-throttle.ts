/**
 * Counts failed password logins per key (an account, a client address) and says how long a key
 * must wait before its next attempt. Time is passed in, never read, so that every adapter (in
 * memory now, Redis for many instances later) follows one clock the caller chooses. Methods
 * reject only on outages.
 */
export interface LoginThrottle {
  /** Milliseconds until every one of `keys` may try again at `now`; 0 when all may. */
  waitFor(keys: readonly string[], now: number): Promise<number>;
  /** Counts one failed attempt at `now` against each of `keys`. */
  recordFailure(keys: readonly string[], now: number): Promise<void>;
  /** Forgets the failures of `key` (a successful login clears its account). */
  clear(key: string): Promise<void>;
}
export const LoginThrottle = Symbol.for('LoginThrottle');

export interface LoginThrottlePolicy {
  /** Failures a key may make within `windowMs` of its first before it waits. */
  readonly maxFailures: number;
  readonly windowMs: number;
  /** The wait after the `maxFailures`-th failure; it doubles with every failure after it. */
  readonly firstWaitMs: number;
  readonly maxWaitMs: number;
}

/** Five failures in fifteen minutes, then a minute's wait, doubling up to a day. */
export const LOGIN_THROTTLE_POLICY: LoginThrottlePolicy = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  firstWaitMs: 60_000,
  maxWaitMs: 24 * 3_600_000,
};

/** The wait that follows a key's `failures`-th failure within its window. */
export function waitAfter(policy: LoginThrottlePolicy, failures: number): number {
  if (failures < policy.maxFailures) return 0;
  return Math.min(policy.firstWaitMs * 2 ** Math.min(failures - policy.maxFailures, 40), policy.maxWaitMs);
}

/** The keys one attempt counts against: the account (or the name tried, when there is none) and the client. */
export const accountKey = (accountId: string): string => `account:${accountId}`;
export const unknownAccountKey = (login: string): string => `login:${login}`;
export const clientKey = (address: string): string => `client:${address}`;
