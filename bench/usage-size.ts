/**
 * The size of a day of usage history: 1,000 tokens each calling 40 operations every hour of one
 * day (every count answered 2xx, the densest a day gets: one row per token, operation and hour),
 * written through the usage history's Knex adapter as the flush writes it, on SQLite and, when
 * TEST_DATABASE_URL (or DATABASE_URL) names one, PostgreSQL. Prints rows and bytes of the hours,
 * then of the same day once compacted into days.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knex, { type Knex } from 'knex';
import { migrationsOf } from '../src/composition/families.js';
import { KnexUsageHistory } from '../src/families/usage/adapters/knex-usage-history.js';
import { USAGE_DAYS_TABLE, USAGE_HOURS_TABLE } from '../src/families/usage/adapters/migrations.js';
import { COMPACTION_STEP_ROWS } from '../src/families/usage/usage-jobs.js';
import { DAY_MS, HOUR_MS, type UsageCount } from '../src/families/usage/domain/usage.js';
import { migrateToLatest, openDatabase } from '../src/platform/persistence/database.js';

const TOKENS = 1000;
const OPERATIONS = 40;
const USERS = 100;
const DAY = Date.UTC(2026, 10, 25);
/** One flush's worth: an hour of every token's counts is written in batches of this many. */
const BATCH = 10_000;

const operations = Array.from({ length: OPERATIONS }, (_, i) => `GET /api/family${i % 8}/operation-${i}`);
const tokens = Array.from({ length: TOKENS }, (_, i) => ({ tokenId: randomUUID(), userId: `user-${i % USERS}` }));

interface Sizes {
  readonly rows: number;
  readonly bytes: number;
}

interface Measured {
  /** Bytes of a table with its indexes. */
  bytesOf(table: string): Promise<number>;
}

async function fillADay(db: Knex): Promise<void> {
  const history = new KnexUsageHistory(db);
  for (let hour = 0; hour < 24; hour++) {
    const counts: UsageCount[] = tokens.flatMap(({ tokenId, userId }) =>
      operations.map((operation) => ({
        tokenId,
        userId,
        operation,
        status: '2xx' as const,
        hour: DAY + hour * HOUR_MS,
        count: 1 + ((hour * 7) % 50),
      })),
    );
    for (let start = 0; start < counts.length; start += BATCH) await history.record(counts.slice(start, start + BATCH));
  }
}

async function sizesOf(db: Knex, measured: Measured, table: string): Promise<Sizes> {
  const [{ rows }] = (await db(table).count({ rows: '*' })) as [{ rows: string | number }];
  return { rows: Number(rows), bytes: await measured.bytesOf(table) };
}

async function measure(name: string, db: Knex, measured: Measured): Promise<void> {
  await migrateToLatest(db, migrationsOf());
  const started = performance.now();
  await fillADay(db);
  const seconds = (performance.now() - started) / 1000;
  const hours = await sizesOf(db, measured, USAGE_HOURS_TABLE);
  const history = new KnexUsageHistory(db);
  const compacting = performance.now();
  while ((await history.compact(DAY + DAY_MS, COMPACTION_STEP_ROWS)) === COMPACTION_STEP_ROWS);
  const compactSeconds = (performance.now() - compacting) / 1000;
  const days = await sizesOf(db, measured, USAGE_DAYS_TABLE);
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  console.log(
    `${name.padEnd(10)} hours: ${hours.rows} rows, ${mb(hours.bytes)} MB with indexes (${Math.round(hours.bytes / hours.rows)} B/row), written in ${seconds.toFixed(1)} s`,
  );
  console.log(
    `${''.padEnd(10)} compacted into days: ${days.rows} rows, ${mb(days.bytes)} MB with indexes (${Math.round(days.bytes / Math.max(days.rows, 1))} B/row), compacted in ${compactSeconds.toFixed(1)} s`,
  );
}

async function onSqlite(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'usage-size-'));
  const db = openDatabase({ client: 'sqlite', filename: join(dir, 'usage.sqlite') });
  try {
    // dbstat counts the pages of each table and index; the compacted hours' pages are freed by VACUUM first.
    await measure('SQLite', db, {
      bytesOf: async (table) => {
        await db.raw('VACUUM');
        const [{ bytes }] = (await db.raw(
          `select sum(pgsize) as bytes from dbstat where name = ? or name in (select name from sqlite_master where type = 'index' and tbl_name = ?)`,
          [table, table],
        )) as [{ bytes: number }];
        return bytes;
      },
    });
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres(url: string): Promise<void> {
  const schema = `usage_size_${randomBytes(4).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await admin.raw('create schema ??', [schema]);
  const db = openDatabase({ client: 'postgres', url, schema });
  try {
    await measure('PostgreSQL', db, {
      bytesOf: async (table) => {
        // The days' rows were each updated by several compaction steps: their dead versions go first,
        // as autovacuum would take them, over the bench's own connection (the store's has a deadline).
        await admin.raw('vacuum full ??.??', [schema, table]);
        const result = await db.raw('select pg_total_relation_size(?::regclass) as bytes', [`${schema}.${table}`]);
        return Number((result as { rows: [{ bytes: string }] }).rows[0].bytes);
      },
    });
  } finally {
    await db.destroy();
    await admin.raw('drop schema ?? cascade', [schema]);
    await admin.destroy();
  }
}

console.log(`A day of usage history: ${TOKENS} tokens × ${OPERATIONS} operations × 24 hours, all answered 2xx`);
await onSqlite();
const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (url) await onPostgres(url);
else console.log('PostgreSQL: skipped (set TEST_DATABASE_URL or DATABASE_URL)');
