/**
 * User listing: how long `GET /api/user/list` takes over HTTP with 100,000 users stored, on SQLite
 * and, when TEST_DATABASE_URL or DATABASE_URL is set, on PostgreSQL (a schema of its own, dropped
 * afterwards). The product is started as `npm start` starts it; the users are written straight
 * into its database, search keys and all, as the product would store them. Requests go one at a
 * time over one kept-alive connection, so that each latency is the server's alone. See
 * bench/README.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import process from 'node:process';
import knex, { type Knex } from 'knex';
import { pinSelf } from './cpu-pinning.js';
import { startProduct, type Product } from './product.js';
import { fixed, table, verdict } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { ServerFailure } from './server-processes.js';
import { searchKeysOf } from '../src/families/users-and-tokens/domain/users/user-search.js';

const USERS = /^[1-9]\d{0,6}$/.test(process.env.BENCH_USERS ?? '') ? Number(process.env.BENCH_USERS) : 100_000;
/** Requests of each kind, after as many again to warm up. */
const REQUESTS = /^[1-9]\d{0,5}$/.test(process.env.BENCH_REQUESTS ?? '') ? Number(process.env.BENCH_REQUESTS) : 500;
const TARGET_P99_MS = 20;
const BATCH = 500;

const FIRST = ['Ada', 'Zoë', 'Grace', 'Émile', 'Alan', 'Björn', 'Chloé', 'Dmitri', 'Eva', 'François', 'Hélène', 'Ivan'];
const LAST = ['Lovelace', "O'Brien", 'Hopper', 'Zola', 'Turing', 'Ångström', 'Dupré', 'Müller', 'Nakamura', 'Silva'];
const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

/** What each kind of request asks, by its query string. */
const KINDS: Record<string, (n: number) => string> = {
  'no filter': () => '',
  'query, 1 letter': (n) => `?query=${pick([...'abcdefghijklmnopqrstuvwxyz'], n)}`,
  'query, 3 letters': (n) => `?query=${encodeURIComponent(pick(FIRST, n).slice(0, 3).toLowerCase())}`,
  'query, a whole name': (n) => `?query=${encodeURIComponent(`${pick(FIRST, n)} ${pick(LAST, n * 7)}`)}`,
  'query, one user': (n) => `?query=${encodeURIComponent(`user${(n * 7919) % USERS}@`)}`,
  'query, nobody': (n) => `?query=nobody${n}`,
  // Thousands of matches, all among the oldest users: the walk newest first meets none for a long way.
  'query, many old users': (n) => `?query=user${1 + (n % 5)}`,
  'blocked=true': () => '?blocked=true',
  'permission=Cryptography::Encrypt': () => '?permission=Cryptography::Encrypt',
  'query + blocked=false, limit=100': (n) =>
    `?query=${pick(FIRST, n).slice(0, 2).toLowerCase()}&blocked=false&limit=100`,
};

/** The users the product would store, the search keys beside them; one in a hundred blocked. */
async function fill(db: Knex): Promise<void> {
  const start = Date.now() - USERS * 1000;
  for (let offset = 0; offset < USERS; offset += BATCH) {
    const rows: Record<string, unknown>[] = [];
    for (let n = offset; n < Math.min(offset + BATCH, USERS); n++) {
      const firstName = pick(FIRST, n);
      const lastName = pick(LAST, Math.floor(n / FIRST.length));
      const email = `user${n}@example.com`;
      const keys = searchKeysOf({ email, firstName, lastName });
      rows.push({
        id: randomUUID(),
        uid: randomBytes(21).toString('base64url'),
        username: `u${n}.${keys.lastName!.replace(/[^a-z]/g, '')}`.slice(0, 32),
        first_name: firstName,
        last_name: lastName,
        display_name: null,
        email,
        password_hash: null,
        permissions: JSON.stringify(n % 10 === 0 ? ['Cryptography::*'] : n % 3 === 0 ? ['Cryptography::Encrypt'] : []),
        blocked: n % 100 === 0,
        // Some share a millisecond, as users created together do: the order's tie-breaker is used.
        created_at: start + n * 1000 - (n % 5),
        updated_at: start + n * 1000,
        search_email: keys.email,
        search_full_name: keys.fullName,
        search_last_name: keys.lastName,
      });
    }
    await db.transaction((trx) => trx('users').insert(rows));
  }
}

/** Latencies in ms of `REQUESTS` requests of each kind, one at a time. */
async function measure(product: Product): Promise<string[][]> {
  const rows: string[][] = [];
  const ask = async (query: string): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${product.baseUrl}/api/user/list${query}`, { headers: product.headers });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new ServerFailure(`/api/user/list${query} answered ${response.status}`);
    return elapsed;
  };
  let worstQueryP99 = 0;
  for (const [kind, queryOf] of Object.entries(KINDS)) {
    for (let n = 0; n < REQUESTS; n++) await ask(queryOf(n));
    const latencies: number[] = [];
    for (let n = 0; n < REQUESTS; n++) latencies.push(await ask(queryOf(n + REQUESTS)));
    latencies.sort((a, b) => a - b);
    const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.ceil(share * latencies.length) - 1)]!;
    if (kind.startsWith('query')) worstQueryP99 = Math.max(worstQueryP99, at(0.99));
    rows.push([kind, fixed(at(0.5), 2), fixed(at(0.99), 2), fixed(latencies.at(-1)!, 2)]);
  }
  rows.push([`${verdict(worstQueryP99 < TARGET_P99_MS)} every ?query= p99 under ${TARGET_P99_MS} ms`, '', '', '']);
  return rows;
}

async function run(name: string, product: Product, db: Knex): Promise<void> {
  const started = performance.now();
  await fill(db);
  // What PostgreSQL's autovacuum does soon after so many rows arrive (since PostgreSQL 13 inserts
  // alone start it): statistics for the planner, and the visibility map that lets the search
  // indexes answer without reading the table. Done here because a server may run with autovacuum
  // off (this machine's does). SQLite plans these queries alike without statistics.
  if (db.client.config.client === 'pg') await db.raw('vacuum analyze users');
  process.stdout.write(`${name}: ${USERS} users written in ${fixed((performance.now() - started) / 1000, 1)} s\n`);
  const rows = await measure(product);
  process.stdout.write(`${table([['request', 'p50 ms', 'p99 ms', 'max ms'], ...rows])}\n\n`);
}

const READY = '/api/user/list?limit=1';
const isPage = (body: string) => (body.startsWith('{"users":') ? undefined : `not a page of users: ${body}`);

await runBenchmark(async () => {
  const pinning = await pinSelf();
  process.stdout.write(
    `${USERS} users, ${REQUESTS} requests of each kind (after as many to warm up), one at a time\n\n`,
  );

  const sqlite = await startProduct(pinning, ['Users::Read'], READY, isPage, { UTILITY_API_STORAGE: 'sqlite' });
  const file = join(sqlite.env.UTILITY_API_DATA_DIR!, 'utility-api.sqlite');
  const sqliteDb = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
  try {
    await run('SQLite', sqlite, sqliteDb);
  } finally {
    await sqliteDb.destroy();
    await sqlite.server.stop();
  }

  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (url === undefined) {
    process.stdout.write('PostgreSQL: skipped (set TEST_DATABASE_URL or DATABASE_URL)\n');
    return;
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await admin.raw('create schema ??', [schema]);
  const inSchema = new URL(url);
  inSchema.searchParams.set('options', `-c search_path=${schema}`);
  const pgDb = knex({ client: 'pg', connection: inSchema.toString(), pool: { min: 0, max: 2 } });
  try {
    const postgres = await startProduct(pinning, ['Users::Read'], READY, isPage, {
      UTILITY_API_STORAGE: 'postgres',
      DATABASE_URL: inSchema.toString(),
    });
    try {
      await run('PostgreSQL', postgres, pgDb);
    } finally {
      await postgres.server.stop();
    }
  } finally {
    await pgDb.destroy();
    await admin.raw('drop schema ?? cascade', [schema]);
    await admin.destroy();
  }
});
