import { createRequire } from 'node:module';
import type { Knex } from 'knex';

interface QueryCompiler {
  readonly single: { readonly limit?: unknown };
  limit(): string;
}
type QueryCompilerClass = new (client: Knex.Client, builder: unknown, formatter: unknown) => QueryCompiler;

// Knex exports neither class from its entry: they are its dialect's own files (knex 3), and
// tests/adapters/sqlite-client.test.ts fails if they move.
const fromKnex = createRequire(import.meta.url);
const BetterSqlite3Client = fromKnex('knex/lib/dialects/better-sqlite3/index.js') as typeof Knex.Client;
const SqliteQueryCompiler = fromKnex('knex/lib/dialects/sqlite3/query/sqlite-querycompiler.js') as QueryCompilerClass;

/**
 * SQLite's compiler, with a `limit 1` (every `first()`) written into the SQL rather than bound as a
 * parameter. SQLite as better-sqlite3 builds it runs a statement whose LIMIT is a parameter at
 * twice the cost: `select * from tokens where id = ? limit ?` took 41-50 µs a run, and the same
 * with `limit 1` written in 19 (better-sqlite3 alone, against the product's own database file,
 * 2026-11-28); re-planning at every run is our guess at why. Other limits stay bound: a list's
 * limit comes from the request, and written in, each value would be a statement of its own for
 * the connection's cache of prepared statements (see `reuseStatements`).
 */
class SqliteQueryCompilerWritingLimitOne extends SqliteQueryCompiler {
  override limit(): string {
    return this.single.limit === 1 ? 'limit 1' : super.limit();
  }
}

/** Knex's better-sqlite3 client, compiling with SqliteQueryCompilerWritingLimitOne. */
export class BetterSqlite3ClientWritingLimitOne extends BetterSqlite3Client {
  override queryCompiler(builder: unknown, formatter?: unknown): QueryCompiler {
    return new SqliteQueryCompilerWritingLimitOne(this, builder, formatter);
  }
}
