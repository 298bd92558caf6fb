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
export const LoginThrottle = Symbol.for('LoginThrottle');

/** A change to what a user or a token may do, made by some process on the storage all of them share. */
export type AccessChange =
  { readonly kind: 'user'; readonly id: string } | { readonly kind: 'token'; readonly id: string };

/**
 * How every process on one storage (instances behind a load balancer, the CLI beside them) hears
 * of the access changes any of them made, so that none keeps serving a revoked token from its
 * cache for longer than the feed takes to deliver.
 */
export interface AccessChangeFeed {
  /**
   * Tells every subscribed process, this one included. Never rejects: a feed that cannot publish
   * reports it itself, and the other processes then learn when their cached entries lapse.
   */
  publish(change: AccessChange): Promise<void>;
  /**
   * From when it resolves, calls `heard` with every change published on the storage, and `lost`
   * whenever some may have been missed (a connection dropped and came back): whatever was
   * cached must then be forgotten.
   */
  subscribe(heard: (change: AccessChange) => void, lost: () => void): Promise<AccessChangeSubscription>;
}
export const AccessChangeFeed = Symbol.for('AccessChangeFeed');

export interface AccessChangeSubscription {
  close(): Promise<void>;
}
