import { ContainerModule } from 'inversify';
import { RedisAccessChangeFeed } from '../platform/access-changes/redis-access-change-feed.js';
import { RedisConnection } from '../platform/redis/redis-connection.js';
import type { AppConfig } from '../config/config.js';
import {
  AccessChangeFeed,
  type AccessChange,
  type AccessChangeSubscription,
} from '../domain/identity/access-changes.js';
import { Log, StoredAccessChangeFeed } from '../wiring/identifiers.js';
import { typedBindings } from '../wiring/typed-binding.js';

/**
 * Several feeds as one: a change is published on each and heard from each. Hearing a change twice
 * costs a second forgetting of what is already forgotten; missing one would keep a revoked token.
 */
export class EveryAccessChangeFeed implements AccessChangeFeed {
  constructor(private readonly feeds: readonly AccessChangeFeed[]) {}

  async publish(change: AccessChange): Promise<void> {
    await Promise.all(this.feeds.map((feed) => feed.publish(change)));
  }

  async subscribe(heard: (change: AccessChange) => void, lost: () => void): Promise<AccessChangeSubscription> {
    const subscriptions = await Promise.all(this.feeds.map((feed) => feed.subscribe(heard, lost)));
    return { close: async () => void (await Promise.all(subscriptions.map((subscription) => subscription.close()))) };
  }
}

/**
 * The feed of access changes: the storage's own (PostgreSQL's NOTIFY, SQLite's data version, or
 * memory), and beside it Redis pub/sub when instances share a Redis. The storage's stays, because
 * a CLI beside the instances may have no Redis configured.
 */
export const accessChangeFeedModule = (redis: AppConfig['redis']): ContainerModule =>
  new ContainerModule((options) => {
    if (redis.url === null) {
      options.bind(AccessChangeFeed).toService(StoredAccessChangeFeed);
      return;
    }
    const { keyPrefix } = redis;
    typedBindings(options)
      .provide(
        AccessChangeFeed,
        [StoredAccessChangeFeed, RedisConnection, Log],
        (stored, connection, logger) =>
          new EveryAccessChangeFeed([stored, new RedisAccessChangeFeed(connection.client, keyPrefix, logger)]),
      )
      .inSingletonScope();
  });
