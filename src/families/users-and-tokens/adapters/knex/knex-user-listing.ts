import type { Knex } from 'knex';
import type { UserListQuery, UserPosition } from '../../domain/users/ports.js';
import { prefixUpperBound } from '../../domain/users/user-search.js';

/** Every searched column, the username and the folded keys beside it (migration 0010), each with an index. */
export const SEARCHED_COLUMNS = ['username', 'search_email', 'search_full_name', 'search_last_name'] as const;

/**
 * How many of the newest users (after the cursor) a search reads first for a page of
 * {@link WINDOW_PAGE}: enough to fill it when one user in fifty matches, few enough to cost about
 * a millisecond when none do. A larger page reads as many more.
 */
export const WALK_WINDOW = 1000;
/** The page {@link WALK_WINDOW} is sized for, the default one. */
const WINDOW_PAGE = 20;

/**
 * How many users a search may walk in all, per user the page asks for, when the first window
 * shows that walking on would fill the page: as the first window is sized, a page whose prefix one
 * user in fifty holds. A prefix too rare for that goes to the search indexes, whose cost grows with
 * its matches, which are then fewer than a fiftieth of the users.
 */
export const WALK_PER_USER = 50;

/**
 * How much further than the first window's share of matches predicts the walk goes, so that the
 * page is seldom left a few users short by chance (the search indexes then give the rest).
 */
const WALK_MARGIN = 2;

interface Position {
  id: string;
  created_at: number | string;
}

/**
 * A page of users newest first, as rows of `columns`. Without a prefix, the newest-first index
 * gives it at once. With one, a search first reads the newest `firstWindow` users and keeps those
 * that match, which fills the page when the prefix is common (a letter). When the matches it met
 * are many enough for walking on to fill the page within WALK_PER_USER users per user asked, the
 * walk goes on as far as they predict: a page of 100 for a prefix one user in twelve holds (8,000
 * matches in 100,000 users) then costs a walk of 1,200 users, where sorting its older matches
 * from the search index took 14 ms of 23 on PostgreSQL. The rest of the page comes from the older
 * users through the search indexes, each of which holds the creation time beside the key, so that
 * every match is sorted from the index alone and only the page's users are read. The walk costs
 * its window; the search, the index entries of the older matches, never their rows: a common
 * prefix is not sorted by the tens of thousands for a page, and a rare one never walks the whole
 * table, however its matches lie in time.
 *
 * `bytewise` is what makes a comparison byte by byte (PostgreSQL's collation may differ; SQLite's
 * BINARY does not): a prefix's range then holds exactly the texts it begins.
 */
export async function listUserRows<Row extends Position>(
  db: Knex,
  bytewise: string,
  columns: readonly string[],
  query: UserListQuery,
  firstWindow = WALK_WINDOW,
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

  /** The ids of the first `wanted` matches among the `window` newest users after `from`. */
  const walk = async (from: UserPosition | undefined, window: number, wanted: number): Promise<string[]> => {
    // Only what the filters read is taken from the window; the page's users are read at the end.
    const newest = afterPosition(
      db('users').select('id', 'created_at', 'blocked', 'permissions', ...SEARCHED_COLUMNS),
      from,
    )
      .orderByRaw(newestFirst)
      .limit(window)
      .as('newest');
    const walked = (await filtered(withPrefix(db.select('id', 'created_at').from(newest), prefix, bytewise))
      .orderByRaw(newestFirst)
      .limit(wanted)) as Position[];
    return walked.map(({ id }) => id);
  };
  /** The oldest of the `window` newest users after `from`; undefined when fewer are left. */
  const endOf = async (from: UserPosition | undefined, window: number): Promise<UserPosition | undefined> => {
    const end = (await afterPosition(db('users').select('created_at', 'id'), from)
      .orderByRaw(newestFirst)
      .offset(window - 1)
      .first()) as Position | undefined;
    return end && { createdAt: Number(end.created_at), id: end.id };
  };

  // A page of 100 reads 5,000 at first, as many per user asked as a page of 20: where one user in
  // twelve matches, one walk fills it rather than a walk, the window's end and a second walk (its
  // p99 on PostgreSQL was 20 ms; the walk stops at the page's last match, so a window larger
  // than needed costs nothing, and where none match, 5,000 cost 1.9 ms against 0.5 for 1,000).
  const window = Math.ceil((firstWindow * Math.max(limit, WINDOW_PAGE)) / WINDOW_PAGE);
  const page = await walk(after, window, limit);
  let walkedTo = page.length < limit ? await endOf(after, window) : undefined;
  if (walkedTo !== undefined && page.length > 0) {
    const further = Math.ceil((WALK_MARGIN * (limit - page.length) * window) / page.length);
    if (window + further <= WALK_PER_USER * limit) {
      page.push(...(await walk(walkedTo, further, limit - page.length)));
      walkedTo = page.length < limit ? await endOf(walkedTo, further) : undefined;
    }
  }
  if (walkedTo !== undefined) page.push(...(await searchOlder(db, bytewise, query, limit - page.length, walkedTo)));
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
    // The id is made bytewise here, in each branch, so that the sort reads it as it comes: made
    // bytewise in the sort, it cost a projection of every match (about 2 of 7 ms for 11,111
    // matches on PostgreSQL, EXPLAIN ANALYZE).
    const branch = db('users')
      .select(db.raw(`id${bytewise} as id`), 'created_at')
      .whereRaw(`${column} >= ?`, [prefix])
      .whereRaw(`(created_at, id${bytewise}) < (?, ?)`, [before.createdAt, before.id]);
    if (bound !== undefined) branch.whereRaw(`${column} < ?`, [bound]);
    return withFilters(branch, query);
  });
  const matches = (await db
    .select('id', 'created_at')
    .from(db.unionAll(branches, false).as('matches'))
    .orderByRaw('created_at desc, id desc')
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
