import type { Migration } from '../../../../platform/persistence/migrations.js';

/** The users and tokens tables' schema changes, oldest first. Append only: an applied migration is never edited. */
export const USERS_AND_TOKENS_MIGRATIONS: readonly Migration[] = [
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
    name: '0011_token_rotation_addresses_origin',
    async up(db) {
      await db.schema.alterTable('tokens', (table) => {
        // Nothing recorded how the tokens before were issued: none of them is taken for a session.
        table.string('origin', 16).notNullable().defaultTo('token');
        // A JSON list of CIDRs; null: from anywhere, as every token was before.
        table.text('allowed_addresses');
        table.string('rotated_to', 36);
        table.bigInteger('rotation_ends_at');
        table.string('rotated_from', 36);
        table.index(['user_id', 'origin']);
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropIndex(['user_id', 'origin']);
        table.dropColumn('origin');
        table.dropColumn('allowed_addresses');
        table.dropColumn('rotated_to');
        table.dropColumn('rotation_ends_at');
        table.dropColumn('rotated_from');
      });
    },
  },
  {
    name: '0013_quotas',
    async up(db) {
      // Null in both: no quota, as for every user and token before.
      for (const name of ['users', 'tokens'])
        await db.schema.alterTable(name, (table) => {
          table.bigInteger('quota_requests');
          table.string('quota_per', 8);
        });
    },
    async down(db) {
      for (const name of ['users', 'tokens'])
        await db.schema.alterTable(name, (table) => {
          table.dropColumn('quota_requests');
          table.dropColumn('quota_per');
        });
    },
  },
];
