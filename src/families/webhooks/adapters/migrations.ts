import type { Migration } from '../../../platform/persistence/migrations.js';
import { DELIVERIES_TABLE } from './knex-webhook-deliveries.js';
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
  {
    name: '0019_webhook_deliveries',
    async up(db) {
      await db.schema.createTable(DELIVERIES_TABLE, (table) => {
        // msg_ and a UUID: the webhook-id of every attempt.
        table.string('id', 40).primary();
        // No foreign key: a deleted endpoint's deliveries fail at their next attempt, then go with it.
        table.string('endpoint_id', 36).notNullable();
        table.string('event_id', 20).notNullable();
        table.string('event_type', 32).notNullable();
        table.text('payload').notNullable();
        table.string('status', 9).notNullable();
        // A JSON list of {at, status, error, durationMs}.
        table.text('attempts').notNullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('next_attempt_at').notNullable();
        table.text('last_error');
        table.string('lease_owner', 36);
        table.bigInteger('lease_until');
        // One delivery per event and endpoint, however many instances hand the event on.
        table.unique(['endpoint_id', 'event_id']);
        // A claim walks this index in its order (due first) and stops after `limit` rows.
        table.index(['status', 'next_attempt_at', 'created_at']);
        table.index(['endpoint_id', 'created_at']);
        table.index(['lease_owner']);
      });
      await db.schema.alterTable(ENDPOINTS_TABLE, (table) => {
        // Since when every attempt to it has failed; null while its last attempt delivered.
        table.bigInteger('failing_since');
      });
    },
    async down(db) {
      await db.schema.alterTable(ENDPOINTS_TABLE, (table) => table.dropColumn('failing_since'));
      await db.schema.dropTable(DELIVERIES_TABLE);
    },
  },
];
