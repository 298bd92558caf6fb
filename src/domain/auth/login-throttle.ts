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
