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

/** Failures one client address may make over all accounts before it waits (`auth.loginThrottle.perAddress`). */
export const DEFAULT_FAILURES_PER_ADDRESS = 100;

/**
 * The slowing down of an account that fails from many addresses: past `freeFailures` within the
 * window, every attempt on it waits `firstDelayMs` before its password is checked, doubling with
 * each further failure up to `maxDelayMs`. Never a refusal, so nobody can lock an owner out.
 */
export interface AccountSlowdown {
  readonly freeFailures: number;
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
}

export const ACCOUNT_SLOWDOWN: AccountSlowdown = { freeFailures: 5, firstDelayMs: 250, maxDelayMs: 5_000 };

/**
 * The policy of each kind of key: an account tried from one address waits as LOGIN_THROTTLE_POLICY
 * says; an address waits only past `perAddress` failures over all accounts; an account over all
 * addresses is counted for its slowdown and never waits.
 */
export interface LoginThrottlePolicies {
  readonly attempt: LoginThrottlePolicy;
  readonly address: LoginThrottlePolicy;
  readonly account: LoginThrottlePolicy;
}

export const loginThrottlePolicies = (perAddress = DEFAULT_FAILURES_PER_ADDRESS): LoginThrottlePolicies => ({
  attempt: LOGIN_THROTTLE_POLICY,
  address: { ...LOGIN_THROTTLE_POLICY, maxFailures: perAddress },
  account: { ...LOGIN_THROTTLE_POLICY, maxFailures: Number.POSITIVE_INFINITY },
});

/** The wait that follows a key's `failures`-th failure within its window. */
export function waitAfter(policy: LoginThrottlePolicy, failures: number): number {
  if (failures < policy.maxFailures) return 0;
  return Math.min(policy.firstWaitMs * 2 ** Math.min(failures - policy.maxFailures, 40), policy.maxWaitMs);
}

/** How long an attempt on an account waits, before its password is checked, after `failures` from anywhere. */
export function slowdownAfter(slowdown: AccountSlowdown, failures: number): number {
  if (failures < slowdown.freeFailures) return 0;
  return Math.min(slowdown.firstDelayMs * 2 ** Math.min(failures - slowdown.freeFailures, 40), slowdown.maxDelayMs);
}

const ACCOUNT = 'account:';
const UNKNOWN_ACCOUNT = 'login:';
const CLIENT = 'client:';
const ATTEMPT = 'attempt:';

/** The keys one attempt counts against: the account (or the name tried, when there is none), the client, and the two together. */
export const accountKey = (accountId: string): string => `${ACCOUNT}${accountId}`;
export const unknownAccountKey = (login: string): string => `${UNKNOWN_ACCOUNT}${login}`;
export const clientKey = (address: string): string => `${CLIENT}${address}`;
export const attemptKey = (account: string, address: string): string => `${ATTEMPT}${address} ${account}`;

/** Which of the policies a key of the keys above follows. */
export function policyOfKey(policies: LoginThrottlePolicies): (key: string) => LoginThrottlePolicy {
  return (key) => {
    if (key.startsWith(CLIENT)) return policies.address;
    if (key.startsWith(ACCOUNT) || key.startsWith(UNKNOWN_ACCOUNT)) return policies.account;
    return policies.attempt;
  };
}
