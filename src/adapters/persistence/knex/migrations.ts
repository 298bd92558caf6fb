import type { Knex } from 'knex';
import { readBundledFacts } from '../bundled-facts.js';
import { CONTENT_TABLE, insertNewContent } from './knex-content-store.js';

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
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => [...migrations],
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => migration,
};
