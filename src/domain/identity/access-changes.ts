import { identifier } from '../identifier.js';
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
export const AccessChangeFeed = identifier<AccessChangeFeed>('AccessChangeFeed');

export interface AccessChangeSubscription {
  close(): Promise<void>;
}
