import type { Migration } from '../../../platform/persistence/migrations.js';
import { readBundledFacts } from './bundled-facts.js';
import { CONTENT_TABLE, insertNewContent } from './knex-content-store.js';

/** The content table's schema changes, oldest first. Append only: an applied migration is never edited. */
export const CONTENT_MIGRATIONS: readonly Migration[] = [
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
