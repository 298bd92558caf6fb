import type { Migration } from '../../../platform/persistence/migrations.js';
import { MAIL_ATTACHMENTS_TABLE, MAIL_KEYS_TABLE, MAIL_TABLE } from './outbox-rows.js';

/** The outbox's schema changes, oldest first. Append only: an applied migration is never edited. */
export const MAIL_MIGRATIONS: readonly Migration[] = [
  {
    name: '0005_mail_outbox',
    async up(db) {
      await db.schema.createTable(MAIL_TABLE, (table) => {
        table.string('id', 36).primary();
        table.string('message_id', 300).notNullable();
        // No foreign key: a message accepted stays in the outbox whatever becomes of its sender.
        table.string('sender_user_id', 36);
        table.string('from_address', 254).notNullable();
        table.string('from_name', 200);
        // JSON lists of addresses.
        table.text('to_addresses').notNullable();
        table.text('cc_addresses').notNullable();
        table.text('bcc_addresses').notNullable();
        table.text('reply_to').notNullable();
        table.text('subject').notNullable();
        table.text('content').notNullable();
        // A JSON object: name → string or number.
        table.text('variables').notNullable();
        table.string('status', 8).notNullable();
        table.integer('attempts').notNullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('next_attempt_at').notNullable();
        table.bigInteger('sent_at');
        table.text('last_error');
        table.string('lease_owner', 36);
        table.bigInteger('lease_until');
        // A claim walks this index in its order (due first) and stops after `limit` rows; lists and a release read the others.
        table.index(['status', 'next_attempt_at', 'created_at']);
        table.index(['created_at']);
        table.index(['lease_owner']);
      });
      await db.schema.createTable(MAIL_KEYS_TABLE, (table) => {
        table.string('scope', 64).notNullable();
        table.string('key', 255).notNullable();
        table.string('request_hash', 64).notNullable();
        table.string('message_id', 36).notNullable();
        table.bigInteger('created_at').notNullable();
        table.primary(['scope', 'key']);
        table.index(['created_at']);
      });
    },
    async down(db) {
      await db.schema.dropTable(MAIL_KEYS_TABLE);
      await db.schema.dropTable(MAIL_TABLE);
    },
  },
  {
    name: '0009_mail_recipient_outcomes_and_quota',
    async up(db) {
      await db.schema.alterTable(MAIL_TABLE, (table) => {
        // A JSON list of {address, status, lastError}; null until an attempt is recorded.
        table.text('recipient_outcomes');
        // to, cc and bcc together, what a sender's quota counts; filled in below for the messages stored before.
        table.integer('recipient_count').notNullable().defaultTo(0);
        // A sender's messages of the last day, summed at each acceptance.
        table.index(['sender_user_id', 'created_at', 'recipient_count']);
      });
      const length = (column: string) =>
        db.client.config.client === 'pg' ? `json_array_length(${column}::json)` : `json_array_length(${column})`;
      await db(MAIL_TABLE).update({
        recipient_count: db.raw(['to_addresses', 'cc_addresses', 'bcc_addresses'].map(length).join(' + ')),
      });
    },
    async down(db) {
      await db.schema.alterTable(MAIL_TABLE, (table) => {
        table.dropIndex(['sender_user_id', 'created_at', 'recipient_count']);
        table.dropColumn('recipient_count');
        table.dropColumn('recipient_outcomes');
      });
    },
  },
  {
    // Display names need no column: the address lists are JSON, where a named address is `{name, address}`.
    name: '0022_mail_attachments',
    async up(db) {
      await db.schema.createTable(MAIL_ATTACHMENTS_TABLE, (table) => {
        // No foreign key, as for the messages' senders: the outbox's rows are written and read together, in one step.
        table.string('message_id', 36).notNullable();
        // From 0, in the order the request gave them.
        table.integer('position').notNullable();
        table.string('filename', 255).notNullable();
        table.string('content_type', 100).notNullable();
        // BLOB on SQLite, bytea on PostgreSQL.
        table.binary('content').notNullable();
        table.primary(['message_id', 'position']);
      });
    },
    async down(db) {
      await db.schema.dropTable(MAIL_ATTACHMENTS_TABLE);
    },
  },
];
