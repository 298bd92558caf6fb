import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knex, { type Knex } from 'knex';
import { migrateToLatest, openDatabase, type DatabaseSettings } from '../../src/platform/persistence/database.js';
import { migrationsOf } from '../../src/composition/families.js';

export interface TestDatabase {
  readonly db: Knex;
  /** For a process started by a test: the same database, as a DATABASE_URL / sqlite file. */
  readonly env: Record<string, string>;
  /** For a second connection of the test's own: what `db` was opened from. */
  readonly settings: DatabaseSettings;
  drop(): Promise<void>;
}

export const POSTGRES_URL = process.env.TEST_DATABASE_URL;

/**
 * The deadline of the test's own connections: these suites check what the stores do, not how long
 * they may take (tests/http/storage-timeout.test.ts sets its own deadlines). At the default 2 s, a
 * PostgreSQL pool of 10 serving 200 users created at once once missed it in CI, on a machine 2.5
 * times slower than usual with three other test processes beside it.
 */
const TEST_DATABASE_TIMEOUT_MS = 15_000;

/** A migrated SQLite database in a fresh temporary file. */
export async function freshSqlite(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'utility-api-sqlite-'));
  const filename = join(dir, 'test.sqlite');
  const settings: DatabaseSettings = { client: 'sqlite', filename, timeoutMs: TEST_DATABASE_TIMEOUT_MS };
  const db = openDatabase(settings);
  await migrateToLatest(db, migrationsOf());
  return {
    db,
    settings,
    env: { UTILITY_API_STORAGE: 'sqlite', UTILITY_API_SQLITE_FILE: filename },
    drop: async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A migrated PostgreSQL schema of its own in the TEST_DATABASE_URL database, dropped afterwards. */
export async function freshPostgres(): Promise<TestDatabase> {
  if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: POSTGRES_URL, pool: { min: 0, max: 1 } });
  await admin.raw('CREATE SCHEMA ??', [schema]);
  await admin.destroy();
  const settings: DatabaseSettings = {
    client: 'postgres',
    url: POSTGRES_URL,
    schema,
    timeoutMs: TEST_DATABASE_TIMEOUT_MS,
  };
  const db = openDatabase(settings);
  await migrateToLatest(db, migrationsOf());
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    db,
    settings,
    env: { UTILITY_API_STORAGE: 'postgres', DATABASE_URL: url.toString() },
    drop: async () => {
      await db.raw('DROP SCHEMA ?? CASCADE', [schema]);
      await db.destroy();
    },
  };
}

/** The SQL databases every contract and HTTP suite runs on; PostgreSQL only when configured. */
export const sqlDatabases: { name: string; open: () => Promise<TestDatabase> }[] = [
  { name: 'SQLite', open: freshSqlite },
  ...(POSTGRES_URL ? [{ name: 'PostgreSQL', open: freshPostgres }] : []),
];

if (!POSTGRES_URL) {
  console.warn('TEST_DATABASE_URL is not set: the PostgreSQL runs of the contract, HTTP and e2e suites are skipped.');
}
