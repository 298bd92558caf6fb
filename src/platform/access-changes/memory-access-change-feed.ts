import type { AccessChange, AccessChangeFeed, AccessChangeSubscription } from '../../domain/identity/access-changes.js';

/** The feed of one process whose storage is its own memory: nobody else can change it. */
export class MemoryAccessChangeFeed implements AccessChangeFeed {
  private readonly listeners = new Set<(change: AccessChange) => void>();

  async publish(change: AccessChange): Promise<void> {
    for (const heard of this.listeners) heard(change);
  }

  async subscribe(heard: (change: AccessChange) => void): Promise<AccessChangeSubscription> {
    // Wrapped so that the same function subscribed twice is two subscriptions.
    const listener = (change: AccessChange) => heard(change);
    this.listeners.add(listener);
    return { close: async () => void this.listeners.delete(listener) };
  }
}
