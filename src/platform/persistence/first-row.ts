import type { Knex } from 'knex';

/**
 * The query's first row, as Knex's `first()` gives it, with its `limit 1` written into the SQL
 * rather than bound as a parameter. SQLite (as better-sqlite3 builds it) runs a statement whose
 * LIMIT is a parameter at twice the cost: `select * from tokens where id = ? limit ?` took 41-50
 * µs a run, and the same with `limit 1` written in 19 (better-sqlite3 alone, against the product's
 * own database file, 2026-11-28); re-planning at every run is our guess at why. For PostgreSQL
 * only the SQL's text changes.
 */
export function firstRow<TRecord extends object, TResult>(
  query: Knex.QueryBuilder<TRecord, TResult>,
): Knex.QueryBuilder<TRecord, TResult> {
  return query.limit(1, { skipBinding: true });
}
