import type { Knex } from 'knex';
import type { Migration } from '../../../platform/persistence/migrations.js';

export const USAGE_HOURS_TABLE = 'usage_hours';
export const USAGE_DAYS_TABLE = 'usage_days';

/** One count: a token's requests for one operation and status class in one hour (or day). */
function countsTable(table: Knex.CreateTableBuilder, period: 'hour' | 'day'): void {
  // No foreign keys: a token's history outlives the token, and a user's sums the tokens since deleted.
  table.string('token_id', 36).notNullable();
  table.string('user_id', 36).notNullable();
  table.string('operation', 200).notNullable();
  table.string('status_class', 3).notNullable();
  // The period's start, in milliseconds since the epoch (UTC).
  table.bigInteger(period).notNullable();
  table.bigInteger('count').notNullable();
  // What an increment finds its row by, and what a token's series reads.
  table.primary(['token_id', period, 'operation', 'status_class']);
  table.index(['user_id', period]);
}

/** Usage history's schema changes, oldest first. Append only: an applied migration is never edited. */
export const USAGE_MIGRATIONS: readonly Migration[] = [
  {
    name: '0012_usage_history',
    async up(db) {
      await db.schema.createTable(USAGE_HOURS_TABLE, (table) => {
        countsTable(table, 'hour');
        // Compaction takes the oldest hours.
        table.index(['hour']);
      });
      await db.schema.createTable(USAGE_DAYS_TABLE, (table) => countsTable(table, 'day'));
    },
    async down(db) {
      await db.schema.dropTable(USAGE_DAYS_TABLE);
      await db.schema.dropTable(USAGE_HOURS_TABLE);
    },
  },
];
