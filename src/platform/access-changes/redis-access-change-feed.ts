import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { publishOrWarn } from './publishing.js';
import { accessChangeOf } from '../../domain/identity/access-change-text.js';
import type { AccessChange, AccessChangeFeed, AccessChangeSubscription } from '../../domain/identity/access-changes.js';

/**
 * The feed on Redis pub/sub, for instances that share a Redis: `PUBLISH` through the connection
 * the counters use, `SUBSCRIBE` on a connection of its own (a subscribed connection takes no other
 * command). Neither holds a start or a request up: with Redis away, a publication is logged as lost
 * and the subscription waits for Redis in the background. Whenever the subscribing connection is
 * lost, and again when it is back, every cached token is forgotten, since changes published
 * meanwhile were missed.
 */
export class RedisAccessChangeFeed implements AccessChangeFeed {
  private readonly channel: string;

  constructor(
    private readonly publisher: Redis,
    /** The installation's key prefix: installations (and test runs) sharing a Redis hear only their own changes. */
    keyPrefix: string,
    private readonly logger: Logger,
  ) {
    this.channel = `${keyPrefix}access-changes`;
  }

  publish(change: AccessChange): Promise<void> {
    return publishOrWarn(change, this.logger, (text) => this.publisher.publish(this.channel, text));
  }

  async subscribe(heard: (change: AccessChange) => void, lost: () => void): Promise<AccessChangeSubscription> {
    // Subscribed again by hand on every `ready`, so that a first connection made late subscribes too.
    const subscriber = this.publisher.duplicate({
      lazyConnect: true,
      autoResubscribe: false,
      enableOfflineQueue: true,
      commandTimeout: undefined,
    });
    let everReady = false;
    let down = false;
    let closed = false;
    subscriber.on('message', (channel: string, payload: string) => {
      if (closed || channel !== this.channel) return;
      const change = accessChangeOf(payload);
      if (change) heard(change);
    });
    // Without a listener, ioredis prints every failed attempt itself; the counters' connection logs Redis's absence.
    subscriber.on('error', () => {});
    subscriber.on('close', () => {
      if (closed || down || !everReady) return;
      down = true;
      lost();
      this.logger.warn(
        'access-change subscription lost: every cached token forgotten; subscribing again when Redis answers',
      );
    });
    let subscribed: () => void = () => {};
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).then(
        () => {
          if (everReady) lost();
          everReady = true;
          down = false;
          subscribed();
        },
        (error: unknown) => this.logger.warn({ err: error }, 'access-change subscription failed'),
      );
    });
    // Resolves once subscribed, so that what is published next is heard; or after a second
    // without Redis, which the subscription then waits for in the background.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1_000);
      subscribed = () => {
        clearTimeout(timer);
        resolve();
      };
      subscriber.connect().catch(() => {});
    });
    subscribed = () => {};
    return {
      close: async () => {
        closed = true;
        subscriber.disconnect();
      },
    };
  }
}
