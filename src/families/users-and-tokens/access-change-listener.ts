import type { AccessChanges } from './domain/auth/access-changes.js';
import type { AccessChangeFeed, AccessChangeSubscription } from '../../domain/identity/access-changes.js';
import type { LifecycleComponent } from '../../platform/lifecycle.js';

/** Hears, for as long as the process runs, the access changes any process sharing its storage makes. */
export class AccessChangeListener implements LifecycleComponent {
  readonly name = 'access-change listener';
  private subscription: AccessChangeSubscription | undefined;

  constructor(
    private readonly feed: AccessChangeFeed,
    private readonly changes: AccessChanges,
  ) {}

  async start(): Promise<void> {
    this.subscription = await this.feed.subscribe(
      (change) => this.changes.heard(change),
      () => this.changes.lost(),
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
  }
}
