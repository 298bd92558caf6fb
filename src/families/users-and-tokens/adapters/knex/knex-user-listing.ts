import type { Knex } from 'knex';
import type { UserListQuery, UserPosition } from '../../domain/users/ports.js';
import { prefixUpperBound } from '../../domain/users/user-search.js';

/** Every searched column, the username and the folded keys beside it (migration 0010), each with an index. */
export const SEARCHED_COLUMNS = ['username', 'search_email', 'search_full_name', 'search_last_name'] as const;

/**
 * How many of the newest users (after the cursor) a search reads first: enough to fill a page of
 * 20 when one user in fifty matches, few enough to cost about a millisecond when none do.
 */
export const WALK_WINDOW = 1000;

interface Position {
  id: string;
  created_at: number | string;
}

/**
 * A page of users newest first, as rows of `columns`. Without a prefix, the newest-first index
 * gives it at once. With one, a search first reads the newest WALK_WINDOW users and keeps those
 * that match, which fills the page when the prefix is common (a letter); when it is not, the rest
 * of the page comes from the older users through the search indexes, each of which holds the
 * creation time beside the key, so that every match is sorted from the index alone and only the
 * page's users are read. The walk costs its window; the search, the index entries of the older
 * matches, never their rows: a common prefix is not sorted by the tens of thousands for a page,
 * and a rare one never walks the whole table, however its matches lie in time.
 *
 * `bytewise` is what makes a comparison byte by byte (PostgreSQL's collation may differ; SQLite's
 * BINARY does not): a prefix's range then holds exactly the texts it begins.
 */
export async function listUserRows<Row extends Position>(
  db: Knex,
  bytewise: string,
  columns: readonly string[],
  query: UserListQuery,
  walkWindow = WALK_WINDOW,
): Promise<Row[]> {
  const { prefix, after, limit } = query;
  const newestFirst = `created_at desc, id${bytewise} desc`;
  const afterPosition = (builder: Knex.QueryBuilder, position: UserPosition | undefined) =>
    position === undefined
      ? builder
      : builder.whereRaw(`(created_at, id${bytewise}) < (?, ?)`, [position.createdAt, position.id]);
  const filtered = (builder: Knex.QueryBuilder) => withFilters(builder, query);

  if (prefix === undefined)
    return (await filtered(afterPosition(db('users').select(columns), after))
      .orderByRaw(newestFirst)
      .limit(limit)) as Row[];

  // Only what the filters read is taken from the window; the page's users are read at the end.
  const window = afterPosition(
    db('users').select('id', 'created_at', 'blocked', 'permissions', ...SEARCHED_COLUMNS),
    after,
  )
    .orderByRaw(newestFirst)
    .limit(walkWindow)
    .as('newest');
  const walked = (await filtered(withPrefix(db.select('id', 'created_at').from(window), prefix, bytewise))
    .orderByRaw(newestFirst)
    .limit(limit)) as Position[];
  let page = walked.map(({ id }) => id);
  if (page.length < limit) {
    const windowEnd = (await afterPosition(db('users').select('created_at', 'id'), after)
      .orderByRaw(newestFirst)
      .offset(walkWindow - 1)
      .first()) as Position | undefined;
    if (windowEnd !== undefined) {
      const older = await searchOlder(db, bytewise, query, limit - page.length, {
        createdAt: Number(windowEnd.created_at),
        id: windowEnd.id,
      });
      page = [...page, ...older];
    }
  }
  if (page.length === 0) return [];
  const rows = (await db('users').select(columns).whereIn('id', page)) as Row[];
  const rank = new Map(page.map((id, index) => [id, index]));
  return rows.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
}

/** The ids of the `limit` newest matches older than `before`, sorted from the search indexes alone. */
async function searchOlder(
  db: Knex,
  bytewise: string,
  query: UserListQuery,
  limit: number,
  before: UserPosition,
): Promise<string[]> {
  const prefix = query.prefix!;
  const bound = prefixUpperBound(prefix);
  // One branch per index, each read as a range of it; a user matching through two keys comes twice.
  const branches = SEARCHED_COLUMNS.map((name) => {
    const column = `${name}${bytewise}`;
    const branch = db('users')
      .select('id', 'created_at')
      .whereRaw(`${column} >= ?`, [prefix])
      .whereRaw(`(created_at, id${bytewise}) < (?, ?)`, [before.createdAt, before.id]);
    if (bound !== undefined) branch.whereRaw(`${column} < ?`, [bound]);
    return withFilters(branch, query);
  });
  const matches = (await db
    .select('id', 'created_at')
    .from(db.unionAll(branches, false).as('matches'))
    .orderByRaw(`created_at desc, id${bytewise} desc`)
    // Each user at most once per key: this many rows hold `limit` users, whatever the repeats.
    .limit(limit * SEARCHED_COLUMNS.length)) as Position[];
  return [...new Set(matches.map(({ id }) => id))].slice(0, limit);
}

/** Users whose username or a folded key begins with `prefix`, exactly. */
function withPrefix(builder: Knex.QueryBuilder, prefix: string, bytewise: string): Knex.QueryBuilder {
  const bound = prefixUpperBound(prefix);
  const ranges = SEARCHED_COLUMNS.map(
    (name) => `(${name}${bytewise} >= ?${bound === undefined ? '' : ` and ${name}${bytewise} < ?`})`,
  );
  const values = SEARCHED_COLUMNS.flatMap(() => (bound === undefined ? [prefix] : [prefix, bound]));
  return builder.whereRaw(`(${ranges.join(' or ')})`, values);
}

/** The filters other than the prefix and the position. */
function withFilters(builder: Knex.QueryBuilder, { blocked, holdingAnyOf }: UserListQuery): Knex.QueryBuilder {
  if (blocked !== undefined) builder.where('blocked', blocked);
  if (holdingAnyOf !== undefined) {
    // Permissions are stored as a JSON list: a name held is a quoted string in it.
    const patterns = holdingAnyOf.map((name) => `%${JSON.stringify(name).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    builder.whereRaw(`(${patterns.map(() => "permissions like ? escape '\\'").join(' or ')})`, patterns);
  }
  return builder;
}
