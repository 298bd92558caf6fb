import type { AccessChange, AccessChangeFeed } from '../../../../domain/identity/access-changes.js';
import type { VerifiedTokenCache } from './verified-token-cache.js';

/**
 * Access changes as this process makes and hears them: a change made here is forgotten from the
 * cache at once, before its answer leaves, and published for the other processes; a change heard
 * from the feed (others', and this one's own echo) is forgotten the same way. A change names only
 * the user or token changed: each process forgets for itself every cached token whose chain holds
 * it, so what hangs on it further down needs no announcement of its own.
 */
export class AccessChanges {
  constructor(
    private readonly cache: VerifiedTokenCache,
    private readonly feed: AccessChangeFeed,
  ) {}

  async announce(change: AccessChange): Promise<void> {
    this.heard(change);
    await this.feed.publish(change);
  }

  heard(change: AccessChange): void {
    if (change.kind === 'user') this.cache.forgetUser(change.id);
    else this.cache.forgetToken(change.id);
  }

  /** Changes may have been missed: nothing cached can be trusted. */
  lost(): void {
    this.cache.forgetEverything();
  }
}
