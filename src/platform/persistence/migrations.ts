import type { Knex } from 'knex';
import { readBundledFacts } from '../../families/content/adapters/bundled-facts.js';
import { ACCESS_CHANGES_TABLE } from '../access-changes/sqlite-access-change-feed.js';
import { CONTENT_TABLE, insertNewContent } from '../../families/content/adapters/knex-content-store.js';
import { MAIL_KEYS_TABLE, MAIL_TABLE } from '../../families/mail/adapters/knex-outbox.js';

interface Migration {
  readonly name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** Every schema change, oldest first. Append only: an applied migration is never edited. */
const migrations: readonly Migration[] = [
  {
    name: '0001_users_and_tokens',
    async up(db) {
      await db.schema.createTable('users', (table) => {
        table.string('id', 36).primary();
        table.string('uid', 64).notNullable().unique();
        table.string('username', 64).notNullable().unique();
        table.string('first_name', 200);
        table.string('last_name', 200);
        table.string('display_name', 200);
        table.string('email', 320).unique();
        table.text('password_hash');
        table.text('permissions').notNullable();
        table.boolean('blocked').notNullable().defaultTo(false);
        table.bigInteger('created_at').notNullable();
        table.bigInteger('updated_at').notNullable();
      });
      await db.schema.createTable('tokens', (table) => {
        table.string('id', 36).primary();
        table.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
        table.string('secret_hash', 64).notNullable().unique();
        table.string('prefix', 32).notNullable();
        table.string('license', 32).notNullable().unique();
        table.string('name', 200);
        table.text('scopes').notNullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('expires_at');
        table.bigInteger('last_used_at');
        table.bigInteger('uses').notNullable().defaultTo(0);
        table.boolean('disabled').notNullable().defaultTo(false);
        table.index(['user_id', 'created_at']);
      });
    },
    async down(db) {
      await db.schema.dropTable('tokens');
      await db.schema.dropTable('users');
    },
  },
  {
    name: '0002_token_issuer',
    async up(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.string('issued_by', 36);
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropColumn('issued_by');
      });
    },
  },
  {
    name: '0003_tokens_by_issuer',
    async up(db) {
      // Deleting a user deletes the tokens it issued for others; before this, they were kept.
      await db('tokens').whereNotNull('issued_by').whereNotIn('issued_by', db('users').select('id')).delete();
      await db.schema.alterTable('tokens', (table) => {
        table.index(['issued_by']);
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropIndex(['issued_by']);
      });
    },
  },
  {
    name: '0004_content',
    async up(db) {
      await db.schema.createTable(CONTENT_TABLE, (table) => {
        // 64 bits of SHA-256 of kind, category and normalised text: one row per text per category.
        table.string('id', 16).primary();
        table.string('kind', 8).notNullable();
        table.string('category', 32).notNullable();
        table.text('text').notNullable();
        table.string('author', 200);
        table.string('source', 200).notNullable();
        table.bigInteger('created_at').notNullable();
        table.index(['kind', 'category', 'id']);
      });
      // The cat and dog facts that answer offline on a fresh install.
      await insertNewContent(db, readBundledFacts(Date.now()));
    },
    async down(db) {
      await db.schema.dropTable(CONTENT_TABLE);
    },
  },
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
    name: '0006_token_rate_limit',
    async up(db) {
      // Both null: the installation's default policy applies, as it did to every token before.
      await db.schema.alterTable('tokens', (table) => {
        table.integer('rate_limit_requests');
        table.integer('rate_limit_per_seconds');
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropColumn('rate_limit_requests');
        table.dropColumn('rate_limit_per_seconds');
      });
    },
  },
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
  {
    name: '0008_token_issued_through',
    async up(db) {
      // The token a token was minted through; null for every token before: they hang on their issuer only.
      await db.schema.alterTable('tokens', (table) => {
        table.string('issued_through', 36);
        table.index(['issued_through']);
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropIndex(['issued_through']);
        table.dropColumn('issued_through');
      });
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
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => [...migrations],
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => migration,
};
