import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knex, { type Knex } from 'knex';
import type { DependencyCheck } from '../health/ports.js';
import { LruCache } from '../caching/lru-cache.js';
import { ADVISORY_LOCKS } from './advisory-locks.js';
import { migrationSourceOf, type Migration } from './migrations.js';
import { BetterSqlite3ClientWritingLimitOne } from './sqlite-client.js';

export type DatabaseSettings = (
  | { readonly client: 'sqlite'; readonly filename: string; readonly synchronous?: 'full' | 'normal' }
  | { readonly client: 'postgres'; readonly url: string; readonly schema?: string }
) & {
  /**
   * The longest a call waits for a connection, a lock or an answer before it fails as
   * unreachable (default 2 s): a database that hangs costs a request this, not minutes.
   */
  readonly timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 2000;

/** The longest one call of a store may wait on the database (see `timeoutMs`). */
export const databaseTimeoutMs = (settings: DatabaseSettings): number => settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;

/**
 * Where Knex's own warnings go (a connection attempt that failed, a deprecation), one line each.
 * Left to itself Knex prints them with their stack by console.log, on the stdout that carries the
 * server's JSON log lines and the CLI's answers.
 */
export type DatabaseWarnings = (message: string) => void;

/**
 * How long SQLite waits for another connection's write lock before answering SQLITE_BUSY. It
 * waits synchronously, stopping every request of the process meanwhile, so only briefly: the
 * stores' calls are made again, asynchronously, until `timeoutMs` (see `reachingInTime`).
 */
const SQLITE_BUSY_WAIT_MS = 10;

/**
 * SQLite's own cache of the database's pages, per connection, in KiB: SQLite's default of 2 MB.
 * better-sqlite3 builds SQLite with 16 MB, which a growing table (the mail outbox under load)
 * fills page by page from the C allocator's heap and keeps: the server's RSS grew by 12.5 MB over
 * two minutes of bench:mixed, all of it that heap, and 3.7 % rather than 12-17 % with no mail sent.
 * The operating system caches the file anyway, so a page SQLite no longer holds costs a read from
 * memory, not from the disk.
 */
const SQLITE_PAGE_CACHE_KIB = 2000;

interface SqliteStatement {
  /** Whether an iteration over its rows is under way: it cannot run again meanwhile. */
  readonly busy: boolean;
}
interface SqliteConnection {
  pragma(statement: string): unknown;
  prepare(sql: string): SqliteStatement;
}

/** Distinct statements a SQLite connection keeps prepared: every query the stores make, with room for the lists' varying `in (…)`. */
const PREPARED_STATEMENTS = 1000;

/**
 * Knex prepares every query's statement again (better-sqlite3's `prepare`, which parses and plans
 * the SQL), and the stores ask the same few hundred queries over and over: the connection keeps
 * the most recently used ones prepared, by their SQL. In bench:mixed on SQLite, preparing took
 * 1.7 s of the event loop's 30 s (24,000 statements, 3 distinct per request); SQLite prepares a
 * kept statement again by itself when a migration changed the schema.
 */
function reuseStatements(connection: SqliteConnection): void {
  const prepare = connection.prepare.bind(connection);
  const prepared = new LruCache<string, SqliteStatement>(PREPARED_STATEMENTS);
  connection.prepare = (sql) => {
    const kept = prepared.get(sql);
    if (kept !== undefined && !kept.busy) return kept;
    const statement = prepare(sql);
    prepared.set(sql, statement);
    return statement;
  };
}

/**
 * Opens a Knex connection; SQLite gets its folder created and foreign keys switched on. A failed
 * statement's error names it with its placeholders, never its values (`compileSqlOnError`): the
 * error reaches the log, and the values are emails, names, password hashes and mail.
 */
export function openDatabase(settings: DatabaseSettings, warn: DatabaseWarnings = () => {}): Knex {
  const oneLine = (message: unknown) => warn(String(message).split('\n', 1)[0]!);
  const log = { warn: oneLine, error: oneLine, deprecate: oneLine, debug: () => {} };
  const timeoutMs = databaseTimeoutMs(settings);
  if (settings.client === 'sqlite') {
    if (settings.filename !== ':memory:') mkdirSync(dirname(settings.filename), { recursive: true });
    return knex({
      client: BetterSqlite3ClientWritingLimitOne,
      connection: { filename: settings.filename },
      useNullAsDefault: true,
      acquireConnectionTimeout: timeoutMs,
      compileSqlOnError: false,
      log,
      pool: {
        afterCreate: (connection: SqliteConnection, done: (error: Error | null) => void) => {
          reuseStatements(connection);
          connection.pragma('journal_mode = WAL');
          connection.pragma(`synchronous = ${settings.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
          connection.pragma('foreign_keys = ON');
          connection.pragma(`busy_timeout = ${SQLITE_BUSY_WAIT_MS}`);
          connection.pragma(`cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
          done(null);
        },
      },
    });
  }
  return knex({
    client: 'pg',
    // The pg driver's own deadlines: to connect, and for each query's answer.
    connection: { connectionString: settings.url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs },
    acquireConnectionTimeout: timeoutMs,
    compileSqlOnError: false,
    searchPath: settings.schema ? [settings.schema] : undefined,
    pool: { min: 0, max: 10 },
    log,
  });
}

/** The database as readiness asks after it: a trivial query that must come back. */
export const databaseCheck = (db: Knex): DependencyCheck => ({
  component: 'database',
  componentType: 'datastore',
  whenDown: 'fail',
  probe: async () => {
    await db.raw('select 1');
  },
});

export async function migrateToLatest(
  db: Knex,
  migrations: readonly Migration[],
  lockWaitMs = MIGRATION_LOCK_WAIT_MS,
): Promise<string[]> {
  const migrationSource = migrationSourceOf(migrations);
  const turn = await migrationTurn(db, lockWaitMs);
  const migrator = migrationConnection(db, lockWaitMs);
  const deadline = Date.now() + lockWaitMs;
  try {
    for (;;) {
      try {
        const [, applied] = (await migrator.migrate.latest({ migrationSource })) as [number, string[]];
        return applied;
      } catch (error) {
        // Instances started together: one migrates, the others wait for it and then find nothing to do.
        if (!anotherProcessMigrating(error)) throw error;
        if (Date.now() > deadline) {
          throw new Error(
            `the database's migration lock was held for ${lockWaitMs / 1000} s: if no process is migrating, clear is_locked in knex_migrations_lock`,
            { cause: error },
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    if (migrator !== db) await migrator.destroy();
    await turn?.destroy();
  }
}

/**
 * On PostgreSQL, waits until no other process migrates this schema, and holds the turn on a
 * connection of its own until destroyed (or until the process dies, which ends its session).
 * Knex's own lock cannot stand in for it: Knex creates that lock's table and row before taking it,
 * unguarded, and two processes that both found the table empty inserted a row each, after which
 * every attempt to lock updated two rows and gave up (seen as a start that waited a minute and
 * failed, under the test suite's load). SQLite is left to Knex's lock: several processes starting
 * at once on one fresh SQLite file are rare, and no such failure has been seen there.
 */
async function migrationTurn(db: Knex, lockWaitMs: number): Promise<Knex | undefined> {
  const config = db.client.config as Knex.Config;
  if (config.client !== 'pg') return undefined;
  const turn = migrationConnection(db, lockWaitMs);
  if (turn === db) return undefined;
  try {
    await turn.raw('SELECT pg_advisory_lock(?, hashtext(current_schema()))', [ADVISORY_LOCKS.migrations]);
    return turn;
  } catch (error) {
    await turn.destroy();
    // pg's query_timeout: the turn was not given within the wait. Any other failure (the database
    // unreachable, say) is told as it is.
    if (!(error instanceof Error && /Query read timeout/.test(error.message))) throw error;
    const why = `another process has been migrating the database for ${lockWaitMs / 1000} s, or it did not answer`;
    throw new Error(why, { cause: error });
  }
}

/**
 * What migrations run on. On PostgreSQL, a connection of their own whose queries may take as long
 * as a start waits for another process's migration: a migration may rightly take longer than a
 * request's deadline, and Knex makes the processes started beside it wait for its lock inside a
 * query (pg's query_timeout failed them with "ROLLBACK - Query read timeout" once the one
 * migrating took over 2 s). SQLite's connection is the database itself (`:memory:` is per connection).
 */
function migrationConnection(db: Knex, lockWaitMs: number): Knex {
  const config = db.client.config as Knex.Config & { connection?: Record<string, unknown> };
  if (config.client !== 'pg' || typeof config.connection !== 'object') return db;
  // Its connection is also made within that wait, not a request's deadline: with a deadline of
  // 200 ms, a test on a loaded machine failed "Timeout acquiring a connection" before migrating.
  return knex({
    ...config,
    acquireConnectionTimeout: lockWaitMs,
    connection: { ...config.connection, query_timeout: lockWaitMs },
    pool: { min: 0, max: 1 },
  });
}

/**
 * Knex's migrator takes a lock before migrating, but creates its own bookkeeping tables before
 * that, unguarded: a process that meets another's lock, or loses the race to create those tables,
 * has only to try again. A failing migration of ours names its own tables, never these.
 */
const anotherProcessMigrating = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'MigrationLocked' || /\bknex_migrations(_lock)?\b/.test(error.message));

/** How long a start waits for another process's migration before giving up. */
const MIGRATION_LOCK_WAIT_MS = 60_000;

/**
 * What a database error means for a write: the column whose uniqueness it broke, if that is
 * what happened. SQLite says "UNIQUE constraint failed: users.email"; PostgreSQL's detail says
 * "Key (email)=(...) already exists."
 */
export function uniqueViolationColumn(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, detail } = error as { code?: unknown; message?: unknown; detail?: unknown };
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return /constraint failed: \w+\.(\w+)/.exec(String(message))?.[1];
  }
  if (code === '23505') return /Key \((\w+)\)/.exec(String(detail))?.[1];
  return undefined;
}
