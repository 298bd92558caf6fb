import type { Knex } from 'knex';
import { ACCESS_CHANGES_TABLE } from '../access-changes/sqlite-access-change-feed.js';
import { AUDIT_MIGRATION } from '../audit/knex-audit-trail.js';
import { EVENTS_MIGRATION } from '../events/knex-event-log.js';

/**
 * One schema change. Each family brings its own (its descriptor's `migrations`); the platform
 * brings those of what it stores itself. Names are global: a four-digit number first, so that
 * every change of every family applies in the order it was written. Append only: an applied
 * migration is never edited.
 */
export interface Migration {
  readonly name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** What the platform stores itself. */
export const PLATFORM_MIGRATIONS: readonly Migration[] = [
  {
    name: '0007_access_changes',
    async up(db) {
      // The access-change feed on SQLite (PostgreSQL notifies instead): each process reads new rows
      // when the file's data_version moves; rows older than a minute are pruned by the publishers.
      await db.schema.createTable(ACCESS_CHANGES_TABLE, (table) => {
        table.increments('id');
        table.string('kind', 8).notNullable();
        table.string('subject', 36).notNullable();
        table.bigInteger('created_at').notNullable().index();
      });
    },
    async down(db) {
      await db.schema.dropTable(ACCESS_CHANGES_TABLE);
    },
  },
  AUDIT_MIGRATION,
  EVENTS_MIGRATION,
];

/**
 * Every migration of the platform and the families, oldest first. The source always holds all of
 * them, whichever families a process builds: knex refuses a database that has applied a migration
 * its source does not know.
 */
export function migrationSourceOf(migrations: readonly Migration[]): Knex.MigrationSource<Migration> {
  const names = migrations.map((migration) => migration.name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new Error(`Two migrations are named ${repeated}`);
  const ordered = [...migrations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    getMigrations: async () => ordered,
    getMigrationName: (migration) => migration.name,
    getMigration: async (migration) => migration,
  };
}
