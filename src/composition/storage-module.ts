import { ContainerModule } from 'inversify';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { MemoryAccessChangeFeed } from '../platform/access-changes/memory-access-change-feed.js';
import { PostgresAccessChangeFeed } from '../platform/access-changes/postgres-access-change-feed.js';
import { SqliteAccessChangeFeed } from '../platform/access-changes/sqlite-access-change-feed.js';
import type { DatabaseSettings } from '../platform/persistence/database.js';
import { CallDeadline, reachingInTime } from '../platform/persistence/reaching-in-time.js';
import { readBundledFacts } from '../families/content/adapters/bundled-facts.js';
import { databaseCheck, databaseTimeoutMs } from '../platform/persistence/database.js';
import { KnexContentStore } from '../families/content/adapters/knex-content-store.js';
import { KnexOutbox } from '../families/mail/adapters/knex-outbox.js';
import { MemoryContentStore } from '../families/content/adapters/memory-content-store.js';
import { MemoryOutbox } from '../families/mail/adapters/memory-outbox.js';
import { KnexTokenStore } from '../families/users-and-tokens/adapters/knex/knex-token-store.js';
import { KnexUserStore } from '../families/users-and-tokens/adapters/knex/knex-user-store.js';
import { MemoryTables } from '../families/users-and-tokens/adapters/memory/memory-tables.js';
import { MemoryTokenStore } from '../families/users-and-tokens/adapters/memory/memory-token-store.js';
import { MemoryUserStore } from '../families/users-and-tokens/adapters/memory/memory-user-store.js';
import { ContentStore } from '../families/content/domain/ports.js';
import { Outbox } from '../families/mail/domain/ports.js';
import { DependencyCheck } from '../platform/health/ports.js';
import { TokenStore } from '../families/users-and-tokens/domain/tokens/ports.js';
import { UserStore } from '../families/users-and-tokens/domain/users/ports.js';
import { Database, Log, StoredAccessChangeFeed } from './identifiers.js';

/** An open database and what it was opened from. */
export interface OpenDatabase {
  readonly db: Knex;
  readonly settings: DatabaseSettings;
}

/** The stores on an open database, or in memory when there is none, and the feed of access changes between the processes sharing them. */
export const storageModule = (database: OpenDatabase | undefined): ContainerModule =>
  new ContainerModule(({ bind }) => {
    if (database) {
      const { db, settings } = database;
      bind(Database).toConstantValue(db);
      const deadline = new CallDeadline(databaseTimeoutMs(settings));
      // SQLite answers synchronously, so a long call never lets its timer run; and its readers,
      // answered beside a writer waiting for the lock, must not lengthen that writer's wait.
      if (settings.client === 'postgres') db.on('query-response', () => deadline.answered());
      const inTime = <Store extends object>(store: Store): Store => reachingInTime(store, deadline);
      bind(UserStore).toConstantValue(inTime(new KnexUserStore(db)));
      bind(TokenStore).toConstantValue(inTime(new KnexTokenStore(db)));
      bind(ContentStore).toConstantValue(inTime(new KnexContentStore(db)));
      bind(StoredAccessChangeFeed)
        .toResolvedValue(
          (logger: Logger) =>
            settings.client === 'sqlite'
              ? new SqliteAccessChangeFeed(db, logger)
              : new PostgresAccessChangeFeed(db, { url: settings.url, schema: settings.schema }, logger),
          [Log],
        )
        .inSingletonScope();
      bind(Outbox).toConstantValue(inTime(new KnexOutbox(db)));
      bind(DependencyCheck).toConstantValue(databaseCheck(db));
    } else {
      bind(StoredAccessChangeFeed).toConstantValue(new MemoryAccessChangeFeed());
      const tables = new MemoryTables();
      bind(UserStore).toConstantValue(new MemoryUserStore(tables));
      bind(TokenStore).toConstantValue(new MemoryTokenStore(tables));
      // What the migration loads into a database: the bundled cat and dog facts.
      bind(ContentStore).toConstantValue(new MemoryContentStore(readBundledFacts(Date.now())));
      bind(Outbox).toConstantValue(new MemoryOutbox());
    }
  });
