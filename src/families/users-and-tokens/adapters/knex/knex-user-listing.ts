import type { Knex } from 'knex';
import type { UserListQuery } from '../../domain/users/ports.js';
import { prefixUpperBound } from '../../domain/users/user-search.js';

/** Every searched column, the username and the folded keys beside it (migration 0010), each with an index. */
export const SEARCHED_COLUMNS = ['username', 'search_email', 'search_full_name', 'search_last_name'] as const;

/**
 * Up to this many users matching a prefix are gathered through the search indexes and sorted;
 * past it the prefix is common enough that walking the users newest first finds a page sooner.
 */
export const GATHERED_AT_MOST = 1000;

interface Position {
  id: string;
  created_at: number | string;
}

/**
 * A page of users newest first, as rows of `columns`. A prefix that few users match is looked up
 * in the search indexes and those few sorted; one that many match (a single letter) would have
 * thousands sorted for twenty, so the newest-first index is walked instead, which meets twenty
 * of them within the first few hundred. The first step finds out which it is, reading at most
 * GATHERED_AT_MOST index entries.
 *
 * `bytewise` is what makes a comparison byte by byte (PostgreSQL's collation may differ; SQLite's
 * BINARY does not): a prefix's range then holds exactly the texts it begins.
 */
export async function listUserRows<Row extends Position>(
  db: Knex,
  bytewise: string,
  columns: readonly string[],
  { prefix, blocked, holdingAnyOf, after, limit }: UserListQuery,
  gatheredAtMost = GATHERED_AT_MOST,
): Promise<Row[]> {
  const filtered = (builder: Knex.QueryBuilder, prefixThroughIndexes: boolean): Knex.QueryBuilder => {
    if (after !== undefined) builder.whereRaw(`(created_at, id${bytewise}) < (?, ?)`, [after.createdAt, after.id]);
    if (prefix !== undefined) {
      const bound = prefixUpperBound(prefix);
      // `(column || '')` is the same text, but no index serves it: the walk must not be turned into a lookup.
      const ranges = SEARCHED_COLUMNS.map((name) => {
        const column = `${prefixThroughIndexes ? name : `(${name} || '')`}${bytewise}`;
        return `(${column} >= ?${bound === undefined ? '' : ` and ${column} < ?`})`;
      });
      const values = SEARCHED_COLUMNS.flatMap(() => (bound === undefined ? [prefix] : [prefix, bound]));
      builder.whereRaw(`(${ranges.join(' or ')})`, values);
    }
    if (blocked !== undefined) builder.where('blocked', blocked);
    if (holdingAnyOf !== undefined) {
      // Permissions are stored as a JSON list: a name held is a quoted string in it.
      const patterns = holdingAnyOf.map((name) => `%${JSON.stringify(name).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      builder.whereRaw(`(${patterns.map(() => "permissions like ? escape '\\'").join(' or ')})`, patterns);
    }
    return builder;
  };
  const newestFirst = (builder: Knex.QueryBuilder) =>
    builder.orderByRaw(`created_at desc, id${bytewise} desc`).limit(limit) as Promise<Row[]>;

  if (prefix === undefined) return newestFirst(filtered(db('users').select(columns), true));
  const matching = (await filtered(db('users').select('id', 'created_at'), true).limit(
    gatheredAtMost + 1,
  )) as Position[];
  if (matching.length > gatheredAtMost) return newestFirst(filtered(db('users').select(columns), false));

  // Ids are ASCII, so JavaScript's comparison is the bytes' order, as `bytewise` makes the database's.
  const page = matching
    .sort((a, b) => Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, limit)
    .map(({ id }) => id);
  if (page.length === 0) return [];
  const rows = (await db('users').select(columns).whereIn('id', page)) as Row[];
  const rank = new Map(page.map((id, index) => [id, index]));
  return rows.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
}
