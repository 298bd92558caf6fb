import type { Migration } from '../../../platform/persistence/migrations.js';
import { ENDPOINTS_TABLE } from './knex-webhook-endpoints.js';

/** The webhooks family's schema changes, oldest first. Append only: an applied migration is never edited. */
export const WEBHOOK_MIGRATIONS: readonly Migration[] = [
  {
    name: '0017_webhook_endpoints',
    async up(db) {
      await db.schema.createTable(ENDPOINTS_TABLE, (table) => {
        table.string('id', 36).primary();
        // No foreign key: deleting a user deletes their endpoints in the same step (see user.deleted), not the schema.
        table.string('owner_user_id', 36);
        table.text('url').notNullable();
        // A JSON list of event names, or ["*"].
        table.text('events').notNullable();
        table.text('description');
        table.string('scope', 3).notNullable();
        // Signing keys, which must be read back to sign: stored as issued (docs/families/webhooks.md says how they are kept).
        table.string('secret', 64).notNullable();
        table.string('previous_secret', 64);
        table.bigInteger('previous_secret_until');
        table.boolean('disabled').notNullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('updated_at').notNullable();
        table.index(['owner_user_id', 'created_at']);
        table.index(['created_at']);
      });
    },
    async down(db) {
      await db.schema.dropTable(ENDPOINTS_TABLE);
    },
  },
];
