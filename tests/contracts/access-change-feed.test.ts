import { expect } from 'chai';
import type { Knex } from 'knex';
import { pino } from 'pino';
import { MemoryAccessChangeFeed } from '../../src/platform/access-changes/memory-access-change-feed.js';
import { PostgresAccessChangeFeed } from '../../src/platform/access-changes/postgres-access-change-feed.js';
import { SqliteAccessChangeFeed } from '../../src/platform/access-changes/sqlite-access-change-feed.js';
import { openDatabase, type DatabaseSettings } from '../../src/platform/persistence/database.js';
import type { AccessChange, AccessChangeFeed } from '../../src/domain/identity/access-changes.js';
import { Redis } from 'ioredis';
import { RedisAccessChangeFeed } from '../../src/platform/access-changes/redis-access-change-feed.js';
import { sqlDatabases } from '../support/databases.js';
import { eventually, settlesWithin } from '../support/eventually.js';
import { deleteKeys, HAS_REDIS_SERVER, REDIS_URL, testKeyPrefix, ThrowawayRedis } from '../support/redis.js';

/** Two processes' feeds on one storage, and what each adapter can be made to suffer. */
interface FeedPair {
  readonly here: AccessChangeFeed;
  readonly there: AccessChangeFeed;
  /** Warnings the feeds logged. */
  readonly warnings: string[];
  /** Makes `here` unable to publish (its database connection gone). */
  breakPublishing(): Promise<void>;
  close(): Promise<void>;
}

const capturingLogger = (warnings: string[]) =>
  pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });

const feedOn = (db: Knex, settings: DatabaseSettings, warnings: string[]): AccessChangeFeed =>
  settings.client === 'sqlite'
    ? new SqliteAccessChangeFeed(db, capturingLogger(warnings), 20)
    : new PostgresAccessChangeFeed(
        db,
        { url: settings.url, schema: settings.schema, reconnectMs: 50 },
        capturingLogger(warnings),
      );

const adapters: { name: string; open: () => Promise<FeedPair> }[] = [
  {
    name: 'memory (one process)',
    open: async () => {
      const feed = new MemoryAccessChangeFeed();
      return { here: feed, there: feed, warnings: [], breakPublishing: async () => {}, close: async () => {} };
    },
  },
  ...sqlDatabases.map(({ name, open }) => ({
    name,
    open: async (): Promise<FeedPair> => {
      const database = await open();
      const otherDb = openDatabase(database.settings);
      const warnings: string[] = [];
      let herePublishes = true;
      return {
        here: feedOn(database.db, database.settings, warnings),
        there: feedOn(otherDb, database.settings, warnings),
        warnings,
        breakPublishing: async () => {
          herePublishes = false;
          await database.db.destroy();
        },
        close: async () => {
          await otherDb.destroy();
          if (!herePublishes) return;
          await database.drop();
        },
      };
    },
  })),
  ...(REDIS_URL ? [{ name: 'Redis pub/sub', open: () => redisPair(REDIS_URL!) }] : []),
];

/** A publishing connection as the instances' counters have it: no offline queue, so a command fails at once when Redis is away. */
async function countersConnection(url: string): Promise<Redis> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 50,
  });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Two processes' Redis feeds, each with its own connection, under a key prefix of the test's own. */
async function redisPair(url: string): Promise<FeedPair> {
  const keyPrefix = testKeyPrefix();
  const warnings: string[] = [];
  const [hereConnection, thereConnection] = [await countersConnection(url), await countersConnection(url)];
  return {
    here: new RedisAccessChangeFeed(hereConnection, keyPrefix, capturingLogger(warnings)),
    there: new RedisAccessChangeFeed(thereConnection, keyPrefix, capturingLogger(warnings)),
    warnings,
    breakPublishing: async () => hereConnection.disconnect(),
    close: async () => {
      hereConnection.disconnect();
      thereConnection.disconnect();
      await deleteKeys(url, keyPrefix);
    },
  };
}

/** What a subscriber heard, and a way to wait, up to the 1 s the feed is allowed, for more. */
function ear() {
  const heard: AccessChange[] = [];
  let losses = 0;
  return {
    heard,
    get losses() {
      return losses;
    },
    onChange: (change: AccessChange) => void heard.push(change),
    onLoss: () => void (losses += 1),
    async until(condition: () => boolean, withinMs = 1000): Promise<void> {
      const deadline = Date.now() + withinMs;
      while (!condition()) {
        if (Date.now() > deadline)
          throw new Error(`not within ${withinMs} ms; heard ${JSON.stringify(heard)}, ${losses} losses`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

const USER: AccessChange = { kind: 'user', id: '7d0c1b9e-3a52-4c4e-9f53-0b8d1a1e2f01' };
const TOKEN: AccessChange = { kind: 'token', id: 'b3a1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d' };

for (const adapter of adapters) {
  describe(`contract: AccessChangeFeed (${adapter.name})`, () => {
    let pair: FeedPair;
    beforeEach(async () => (pair = await adapter.open()));
    afterEach(async () => pair.close());

    it('delivers what one process publishes to every subscriber within a second, in order, its own included', async () => {
      const there = ear();
      const here = ear();
      const subscriptions = [
        await pair.there.subscribe(there.onChange, there.onLoss),
        await pair.here.subscribe(here.onChange, here.onLoss),
      ];
      await pair.here.publish(USER);
      await pair.here.publish(TOKEN);
      await there.until(() => there.heard.length === 2);
      await here.until(() => here.heard.length === 2);
      expect(there.heard).to.deep.equal([USER, TOKEN]);
      expect(here.heard).to.deep.equal([USER, TOKEN]);
      expect([there.losses, here.losses]).to.deep.equal([0, 0]);
      for (const subscription of subscriptions) await subscription.close();
    });

    it('delivers nothing published before the subscription, and nothing after it is closed', async () => {
      await pair.here.publish(USER);
      const there = ear();
      const subscription = await pair.there.subscribe(there.onChange, there.onLoss);
      // Another subscriber beside it, which stays: once it has heard a publication, so would have
      // a closed subscription that still listened.
      const witness = ear();
      const watching = await pair.there.subscribe(witness.onChange, witness.onLoss);
      await pair.here.publish(TOKEN);
      await there.until(() => there.heard.length === 1);
      await subscription.close();
      await pair.here.publish(USER);
      await witness.until(() => witness.heard.length === 2);
      expect(witness.heard).to.deep.equal([TOKEN, USER]);
      expect(there.heard).to.deep.equal([TOKEN]);
      await watching.close();
    });

    it('never rejects a publication it cannot make; it says so in the log', async () => {
      await pair.breakPublishing();
      await pair.here.publish(USER);
      if (adapter.name.startsWith('memory')) return;
      expect(pair.warnings).to.deep.equal([
        'access change not published: other processes see it when their cached tokens lapse',
      ]);
    });
  });
}

const postgres = sqlDatabases.find(({ name }) => name === 'PostgreSQL');
if (postgres) {
  describe('contract: AccessChangeFeed (PostgreSQL), a lost connection', () => {
    it('reports the loss, listens again and reports it once more, then delivers again', async () => {
      const database = await postgres.open();
      const warnings: string[] = [];
      const feed = feedOn(database.db, database.settings, warnings);
      const there = ear();
      const subscription = await feed.subscribe(there.onChange, there.onLoss);
      try {
        // The listening connection is the only one of this schema's feed sitting in LISTEN.
        await database.db.raw(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid() AND query LIKE ?`,
          [`%${(database.settings as { schema: string }).schema}%`],
        );
        await there.until(() => there.losses === 2);
        await feed.publish(TOKEN);
        await there.until(() => there.heard.length === 1);
        expect(there.heard).to.deep.equal([TOKEN]);
        expect(warnings).to.include('access-change connection lost: every cached token forgotten; listening again');
      } finally {
        await subscription.close();
        await database.drop();
      }
    });
  });
}

if (HAS_REDIS_SERVER) {
  describe('contract: AccessChangeFeed (Redis pub/sub), Redis going away and coming back', function () {
    this.timeout(20_000);
    it('reports the loss, and once more when subscribed again, then delivers again; a start without Redis subscribes once it comes', async () => {
      const redis = await ThrowawayRedis.start();
      const warnings: string[] = [];
      const connection = await countersConnection(redis.url);
      const keyPrefix = testKeyPrefix();
      const feed = new RedisAccessChangeFeed(connection, keyPrefix, capturingLogger(warnings));
      const there = ear();
      const subscription = await feed.subscribe(there.onChange, there.onLoss);
      try {
        await redis.stop();
        await there.until(() => there.losses === 1);
        await redis.start();
        await there.until(() => there.losses === 2, 5_000);
        await there.until(() => connection.status === 'ready', 5_000);
        await feed.publish(TOKEN);
        await there.until(() => there.heard.length === 1);
        expect(there.heard).to.deep.equal([TOKEN]);
        expect(warnings).to.include(
          'access-change subscription lost: every cached token forgotten; subscribing again when Redis answers',
        );

        // A process that starts while Redis is away starts all the same, and hears once Redis is back.
        await redis.stop();
        const late = ear();
        // Subscribing answers while Redis is still away (were it to wait for Redis, it would never answer here).
        const lateSubscription = await settlesWithin(
          feed.subscribe(late.onChange, late.onLoss),
          'subscribing while Redis is away',
        );
        await redis.start();
        // Both subscribed, as Redis itself counts them: then what is published next is heard.
        await eventually(async () =>
          expect(await connection.pubsub('NUMSUB', `${keyPrefix}access-changes`)).to.deep.equal([
            `${keyPrefix}access-changes`,
            2,
          ]),
        );
        await feed.publish(USER);
        await late.until(() => late.heard.length === 1, 5_000);
        expect(late.heard).to.deep.equal([USER]);
        await lateSubscription.close();
      } finally {
        await subscription.close();
        connection.disconnect();
        await redis.stop();
      }
    });
  });
}
