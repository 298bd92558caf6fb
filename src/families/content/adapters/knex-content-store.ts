import { StoredSecret } from '../../../platform/persistence/stored-secret.js';
import type { Knex } from 'knex';
import { byKindCategoryId, type ContentEntry, type ContentKind } from '../domain/content.js';
import { searchKeysOf } from '../domain/content-search.js';
import type { AuthorCount, CategoryCount, ContentFilter, ContentPageQuery, ContentStore } from '../domain/ports.js';
import { toNumber } from '../../../platform/persistence/columns.js';

export const CONTENT_TABLE = 'content_entries';
/** The secret listing cursors are signed with (one row), made on first use. */
export const CONTENT_LISTING_SECRET_TABLE = 'content_listing_secret';

/** The columns of an entry; the search columns are read by the database alone. */
const ENTRY_COLUMNS = ['id', 'kind', 'category', 'text', 'author', 'source', 'created_at'];

interface ContentRow {
  id: string;
  kind: string;
  category: string;
  text: string;
  author: string | null;
  source: string;
  created_at: number | string;
}

const toEntry = (row: ContentRow): ContentEntry => ({
  id: row.id,
  kind: row.kind as ContentKind,
  category: row.category,
  text: row.text,
  author: row.author,
  source: row.source,
  createdAt: toNumber(row.created_at),
});

/** A row as the table was made by `0004_content`, before the columns listings match by. */
export const toFirstContentRow = (entry: ContentEntry): ContentRow => ({
  id: entry.id,
  kind: entry.kind,
  category: entry.category,
  text: entry.text,
  author: entry.author,
  source: entry.source,
  created_at: entry.createdAt,
});

/** The columns listings match by (`0021_content_listing`), computed here so that every database compares the same strings. */
export const searchColumnsOf = (
  entry: Pick<ContentEntry, 'text' | 'author'>,
): { author_key: string | null; search_words: string; text_length: number } => {
  const keys = searchKeysOf(entry);
  return { author_key: keys.authorKey, search_words: keys.words, text_length: keys.length };
};

const toContentRow = (entry: ContentEntry) => ({ ...toFirstContentRow(entry), ...searchColumnsOf(entry) });

/**
 * Rows per INSERT: well below SQLite's limit of bound variables at ten columns a row, and small
 * enough that each statement answers within `database.timeoutMs` on a loaded machine (500 rows of
 * ten columns, since the listing's columns and indexes, once took over 400 ms on PostgreSQL in CI).
 */
const ROWS_PER_INSERT = 250;

/**
 * Inserts the rows whose id is not stored yet, in one transaction; gives the ids it inserted.
 * `toRow` is the row of the schema at the time (a migration inserts the rows of its own time).
 */
export async function insertNewContent(
  db: Knex,
  entries: readonly ContentEntry[],
  toRow: (entry: ContentEntry) => object = toContentRow,
  progress?: (written: number) => void,
): Promise<string[]> {
  if (entries.length === 0) {
    progress?.(0);
    return [];
  }
  return db.transaction(async (trx) => {
    const added: string[] = [];
    for (let start = 0; start < entries.length; start += ROWS_PER_INSERT) {
      const chunk = entries.slice(start, start + ROWS_PER_INSERT);
      // `returning` names the rows actually inserted, on SQLite (3.35+) as on PostgreSQL; an
      // entry stored meanwhile by another instance is skipped, not an error.
      const inserted = (await trx(CONTENT_TABLE)
        .insert(chunk.map(toRow))
        .onConflict('id')
        .ignore()
        .returning('id')) as { id: string }[];
      added.push(...inserted.map((row) => row.id));
      progress?.(start + chunk.length);
    }
    return added;
  });
}

/** Facts and quotes in the `content_entries` table (SQLite or PostgreSQL). */
export class KnexContentStore implements ContentStore {
  private readonly secret: StoredSecret;

  constructor(private readonly db: Knex) {
    this.secret = new StoredSecret(db, CONTENT_LISTING_SECRET_TABLE, { column: 'id', value: 1 });
  }

  add(entries: readonly ContentEntry[], progress?: (written: number) => void): Promise<readonly string[]> {
    return insertNewContent(this.db, entries, toContentRow, progress);
  }

  async count(kind: ContentKind, category: string): Promise<number> {
    const row = (await this.db(CONTENT_TABLE).where({ kind, category }).count({ count: '*' }).first()) as
      { count: number | string } | undefined;
    return toNumber(row?.count ?? 0);
  }

  async categories(kind: ContentKind): Promise<readonly CategoryCount[]> {
    const rows = (await this.db(CONTENT_TABLE)
      .where({ kind })
      .groupBy('category')
      .select('category')
      .count({ count: '*' })) as { category: string; count: number | string }[];
    return rows
      .map((row) => ({ category: row.category, count: toNumber(row.count) }))
      .sort((a, b) => (a.category < b.category ? -1 : 1));
  }

  async nth(kind: ContentKind, category: string, index: number): Promise<ContentEntry | undefined> {
    const row = (await this.db(CONTENT_TABLE).where({ kind, category }).orderBy('id').offset(index).first()) as
      ContentRow | undefined;
    return row ? toEntry(row) : undefined;
  }

  async list({ kind, category }: ContentFilter): Promise<readonly ContentEntry[]> {
    const query = this.db(CONTENT_TABLE).select<ContentRow[]>(ENTRY_COLUMNS);
    if (kind !== undefined) void query.where({ kind });
    if (category !== undefined) void query.where({ category });
    // Sorted here, not by the database, whose collation may order `-` differently from the memory store.
    return (await query).map(toEntry).sort(byKindCategoryId);
  }

  async page({
    kind,
    category,
    authorKey,
    words = [],
    minLength,
    maxLength,
    after,
    limit,
  }: ContentPageQuery): Promise<readonly ContentEntry[]> {
    const query = this.db(CONTENT_TABLE).select<ContentRow[]>(ENTRY_COLUMNS).where({ kind });
    if (category !== undefined) void query.where({ category });
    if (authorKey !== undefined) void query.where({ author_key: authorKey });
    // Words hold letters and digits only (wordsOf): nothing in them is a LIKE wildcard to escape.
    for (const word of words) void query.where('search_words', 'like', `% ${word} %`);
    if (minLength !== undefined) void query.where('text_length', '>=', minLength);
    if (maxLength !== undefined) void query.where('text_length', '<=', maxLength);
    if (after !== undefined) void query.where('id', '>', after);
    return (await query.orderBy('id').limit(limit)).map(toEntry);
  }

  async authors(kind: ContentKind): Promise<readonly AuthorCount[]> {
    const rows = (await this.db(CONTENT_TABLE)
      .where({ kind })
      .whereNotNull('author')
      .groupBy('author')
      .select('author')
      .count({ count: '*' })) as { author: string; count: number | string }[];
    // Sorted here, in code-unit order, whatever the database's collation.
    return rows
      .map((row) => ({ author: row.author, count: toNumber(row.count) }))
      .sort((a, b) => (a.author < b.author ? -1 : a.author > b.author ? 1 : 0));
  }

  listingSecret(): Promise<Buffer> {
    return this.secret.get();
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db(CONTENT_TABLE).where({ id }).delete()) > 0;
  }
}
