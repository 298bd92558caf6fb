import { identifier } from '../../../../domain/identifier.js';
/**
 * Counts failed password logins per key (an account, a client address) and says how long a key
 * must wait before its next attempt. Time is passed in, never read, so that every adapter (in
 * memory now, Redis for many instances later) follows one clock the caller chooses. Methods
 * reject only on outages.
 */
export interface LoginThrottle {
  /** Milliseconds until every one of `keys` may try again at `now`; 0 when all may. */
  waitFor(keys: readonly string[], now: number): Promise<number>;
  /** The failures of `key` remembered at `now`. */
  failures(key: string, now: number): Promise<number>;
  /** Counts one failed attempt at `now` against each of `keys`. */
  recordFailure(keys: readonly string[], now: number): Promise<void>;
  /** Takes back one failure from each of `keys`: an attempt counted before its outcome was known that did not fail. */
  forgive(keys: readonly string[], now: number): Promise<void>;
  /** Forgets the failures of `key` (a successful login clears its account). */
  clear(key: string): Promise<void>;
}
export const LoginThrottle = identifier<LoginThrottle>('LoginThrottle');
