import type { Knex } from 'knex';
import type { Migration } from '../../../platform/persistence/migrations.js';
import { readBundledFacts } from './bundled-facts.js';
import {
  CONTENT_LISTING_SECRET_TABLE,
  CONTENT_TABLE,
  insertNewContent,
  searchColumnsOf,
  toFirstContentRow,
} from './knex-content-store.js';

/** Rows filled in at a time by `0021_content_listing`: four bound values each. */
const BACKFILL_BATCH = 500;

/**
 * One UPDATE for a batch of rows, from a list of values joined by id (SQLite 3.33+ and
 * PostgreSQL both read `WITH … UPDATE … FROM`): row by row, 20,000 rows took 4.7 s on PostgreSQL.
 */
async function fillSearchColumns(
  db: Knex,
  rows: readonly { id: string; text: string; author: string | null }[],
): Promise<void> {
  const bindings = rows.flatMap((row) => {
    const columns = searchColumnsOf(row);
    return [row.id, columns.author_key, columns.search_words, columns.text_length];
  });
  // Typed by CAST: PostgreSQL reads a bound value in VALUES as text otherwise.
  const values = rows.map(() => '(?, ?, ?, cast(? as integer))').join(', ');
  await db.raw(
    `with filled (id, author_key, search_words, text_length) as (values ${values})
     update ${CONTENT_TABLE} set author_key = filled.author_key, search_words = filled.search_words,
       text_length = filled.text_length
     from filled where ${CONTENT_TABLE}.id = filled.id`,
    bindings,
  );
}

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
      await insertNewContent(db, readBundledFacts(Date.now()), toFirstContentRow);
    },
    async down(db) {
      await db.schema.dropTable(CONTENT_TABLE);
    },
  },
  {
    name: '0021_content_listing',
    async up(db) {
      // What listings match by, folded by the program (content-search.ts) rather than by each
      // database's own rules; filled in here for the rows already stored, by every insert after.
      await db.schema.alterTable(CONTENT_TABLE, (table) => {
        table.string('author_key', 200);
        table.text('search_words');
        table.integer('text_length');
      });
      let after = '';
      for (;;) {
        const rows = (await db(CONTENT_TABLE)
          .select('id', 'text', 'author')
          .where('id', '>', after)
          .orderBy('id')
          .limit(BACKFILL_BATCH)) as { id: string; text: string; author: string | null }[];
        if (rows.length === 0) break;
        await fillSearchColumns(db, rows);
        after = rows.at(-1)!.id;
      }
      await db.schema.alterTable(CONTENT_TABLE, (table) => {
        // A kind's listing in order of id, by itself or by author; by category, the index of 0004 serves.
        table.index(['kind', 'id'], 'content_entries_kind_id');
        table.index(['kind', 'author_key', 'id'], 'content_entries_kind_author');
      });
      await db.schema.createTable(CONTENT_LISTING_SECRET_TABLE, (table) => {
        table.integer('id').primary();
        table.string('secret', 64).notNullable();
      });
    },
    async down(db) {
      await db.schema.dropTable(CONTENT_LISTING_SECRET_TABLE);
      await db.schema.alterTable(CONTENT_TABLE, (table) => {
        table.dropIndex([], 'content_entries_kind_id');
        table.dropIndex([], 'content_entries_kind_author');
        table.dropColumn('author_key');
        table.dropColumn('search_words');
        table.dropColumn('text_length');
      });
    },
  },
];
