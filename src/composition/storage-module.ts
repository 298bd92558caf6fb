import { ContainerModule } from 'inversify';
import type { Knex } from 'knex';
import { MemoryAccessChangeFeed } from '../platform/access-changes/memory-access-change-feed.js';
import { PostgresAccessChangeFeed } from '../platform/access-changes/postgres-access-change-feed.js';
import { SqliteAccessChangeFeed } from '../platform/access-changes/sqlite-access-change-feed.js';
import { databaseCheck, databaseTimeoutMs, type DatabaseSettings } from '../platform/persistence/database.js';
import { CallDeadline, reachingInTime } from '../platform/persistence/reaching-in-time.js';
import { DependencyCheck } from '../platform/health/ports.js';
import { Database, InMemoryAuditTrail, Log, SqlStorage, StoredAccessChangeFeed } from '../wiring/identifiers.js';
import { AuditTrail } from '../domain/audit.js';
import { EventLog } from '../domain/events.js';
import { KnexEventLog } from '../platform/events/knex-event-log.js';
import { KnexAuditTrail } from '../platform/audit/knex-audit-trail.js';
import { MemoryAuditTrail } from '../platform/audit/memory-audit-trail.js';
import { typedBindings } from '../wiring/typed-binding.js';

/** An open database and what it was opened from. */
export interface OpenDatabase {
  readonly db: Knex;
  readonly settings: DatabaseSettings;
}

/**
 * The open database (or none, on memory storage) that each family's stores are made on, with the
 * deadline their calls keep, the feed of access changes between the processes sharing it, and
 * the audit trail the stores write their changes' entries to.
 * Each family binds its own stores in its module.
 */
export const storageModule = (database: OpenDatabase | undefined): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    if (!database) {
      constant(SqlStorage, null);
      constant(StoredAccessChangeFeed, new MemoryAccessChangeFeed());
      const trail = new MemoryAuditTrail();
      constant(InMemoryAuditTrail, trail);
      constant(AuditTrail, trail);
      constant(EventLog, trail.events);
      return;
    }
    const { db, settings } = database;
    constant(Database, db);
    const deadline = new CallDeadline(databaseTimeoutMs(settings));
    // SQLite answers synchronously, so a long call never lets its timer run; and its readers,
    // answered beside a writer waiting for the lock, must not lengthen that writer's wait.
    if (settings.client === 'postgres') db.on('query-response', () => deadline.answered());
    constant(SqlStorage, { db, inTime: (store) => reachingInTime(store, deadline) });
    constant(InMemoryAuditTrail, null);
    constant(AuditTrail, reachingInTime(new KnexAuditTrail(db), deadline));
    constant(EventLog, reachingInTime(new KnexEventLog(db), deadline));
    provide(StoredAccessChangeFeed, [Log], (logger) =>
      settings.client === 'sqlite'
        ? new SqliteAccessChangeFeed(db, logger)
        : new PostgresAccessChangeFeed(db, { url: settings.url, schema: settings.schema }, logger),
    ).inSingletonScope();
    constant(DependencyCheck, databaseCheck(db));
  });
