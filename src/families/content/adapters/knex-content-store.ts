import type { Knex } from 'knex';
import { byKindCategoryId, type ContentEntry, type ContentKind } from '../domain/content.js';
import type { CategoryCount, ContentFilter, ContentStore } from '../domain/ports.js';
import { toNumber } from '../../../platform/persistence/columns.js';

export const CONTENT_TABLE = 'content_entries';

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

export const toContentRow = (entry: ContentEntry): ContentRow => ({
  id: entry.id,
  kind: entry.kind,
  category: entry.category,
  text: entry.text,
  author: entry.author,
  source: entry.source,
  created_at: entry.createdAt,
});

/** Rows per INSERT: well below SQLite's limit of bound variables at seven columns a row. */
const ROWS_PER_INSERT = 500;

/** Inserts the rows whose id is not stored yet, in one transaction; gives the ids it inserted. */
export async function insertNewContent(db: Knex, entries: readonly ContentEntry[]): Promise<string[]> {
  if (entries.length === 0) return [];
  return db.transaction(async (trx) => {
    const added: string[] = [];
    for (let start = 0; start < entries.length; start += ROWS_PER_INSERT) {
      const chunk = entries.slice(start, start + ROWS_PER_INSERT);
      // `returning` names the rows actually inserted, on SQLite (3.35+) as on PostgreSQL; an
      // entry stored meanwhile by another instance is skipped, not an error.
      const inserted = (await trx(CONTENT_TABLE)
        .insert(chunk.map(toContentRow))
        .onConflict('id')
        .ignore()
        .returning('id')) as { id: string }[];
      added.push(...inserted.map((row) => row.id));
    }
    return added;
  });
}

/** Facts and quotes in the `content_entries` table (SQLite or PostgreSQL). */
export class KnexContentStore implements ContentStore {
  constructor(private readonly db: Knex) {}

  add(entries: readonly ContentEntry[]): Promise<readonly string[]> {
    return insertNewContent(this.db, entries);
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
    const query = this.db(CONTENT_TABLE).select<ContentRow[]>();
    if (kind !== undefined) void query.where({ kind });
    if (category !== undefined) void query.where({ category });
    // Sorted here, not by the database, whose collation may order `-` differently from the memory store.
    return (await query).map(toEntry).sort(byKindCategoryId);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db(CONTENT_TABLE).where({ id }).delete()) > 0;
  }
}
