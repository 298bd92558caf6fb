import { expect } from 'chai';
import type { Knex } from 'knex';
import { pino } from 'pino';
import { MemoryAccessChangeFeed } from '../../src/adapters/persistence/memory/memory-access-change-feed.js';
import { PostgresAccessChangeFeed } from '../../src/adapters/persistence/knex/postgres-access-change-feed.js';
import { SqliteAccessChangeFeed } from '../../src/adapters/persistence/knex/sqlite-access-change-feed.js';
import { openDatabase, type DatabaseSettings } from '../../src/adapters/persistence/knex/database.js';
import type { AccessChange, AccessChangeFeed } from '../../src/domain/auth/ports.js';
import { sqlDatabases } from '../support/databases.js';

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

const capturingLogger = (warnings: string[]) => pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });

const feedOn = (db: Knex, settings: DatabaseSettings, warnings: string[]): AccessChangeFeed =>
  settings.client === 'sqlite'
    ? new SqliteAccessChangeFeed(db, capturingLogger(warnings), 20)
    : new PostgresAccessChangeFeed(db, { url: settings.url, schema: settings.schema, reconnectMs: 50 }, capturingLogger(warnings));

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
];

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
        if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms; heard ${JSON.stringify(heard)}, ${losses} losses`);
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
      const subscriptions = [await pair.there.subscribe(there.onChange, there.onLoss), await pair.here.subscribe(here.onChange, here.onLoss)];
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
      await pair.here.publish(TOKEN);
      await there.until(() => there.heard.length === 1);
      await subscription.close();
      await pair.here.publish(USER);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(there.heard).to.deep.equal([TOKEN]);
    });

    it('never rejects a publication it cannot make; it says so in the log', async () => {
      await pair.breakPublishing();
      await pair.here.publish(USER);
      if (adapter.name.startsWith('memory')) return;
      expect(pair.warnings).to.deep.equal(['access change not published: other processes see it when their cached tokens lapse']);
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
        await database.db.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid() AND query LIKE ?`, [
          `%${(database.settings as { schema: string }).schema}%`,
        ]);
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
