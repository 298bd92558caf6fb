import { StoredSecret } from '../../../../platform/persistence/stored-secret.js';
import type { Knex } from 'knex';
import type { UserInsertResult, UserListQuery, UserStore, UserUpdateResult } from '../../domain/users/ports.js';
import { searchKeysOf } from '../../domain/users/user-search.js';
import { WALK_WINDOW, listUserRows } from './knex-user-listing.js';
import type { User, UserChanges } from '../../../../domain/identity/user.js';
import { fromStringList, toBoolean, toNumber, toStringList } from '../../../../platform/persistence/columns.js';
import { uniqueViolationColumn } from '../../../../platform/persistence/database.js';
import { quotaColumns, toQuota } from './quota-columns.js';
import { deleteHangingOn, deleteTokensOfOrigin } from './knex-token-store.js';
import type { AuditEntry } from '../../../../domain/audit.js';
import { appendAuditEntry, insertWithAuditEntry } from '../../../../platform/audit/knex-audit-trail.js';
import { holdAdvisoryLock } from '../../../../platform/persistence/advisory-locks.js';

interface UserRow {
  id: string;
  uid: string;
  username: string;
  first_name: string | null;
  last_name: string | null;
  display_name: string | null;
  email: string | null;
  password_hash: string | null;
  permissions: string;
  blocked: boolean | number;
  quota_requests: number | string | null;
  quota_per: string | null;
  created_at: number | string;
  updated_at: number | string;
}

/** The folded search keys beside a user's row (migration 0010), kept in step with what they are made of. */
interface SearchColumns {
  search_email: string | null;
  search_full_name: string | null;
  search_last_name: string | null;
}

const searchColumnsOf = (user: Pick<User, 'email' | 'firstName' | 'lastName'>): SearchColumns => {
  const keys = searchKeysOf(user);
  return { search_email: keys.email, search_full_name: keys.fullName, search_last_name: keys.lastName };
};

export const LISTING_SECRETS_TABLE = 'listing_secrets';
const USER_CURSORS = 'user-cursors';

const toUser = (row: UserRow): User => ({
  id: row.id,
  uid: row.uid,
  username: row.username,
  firstName: row.first_name,
  lastName: row.last_name,
  displayName: row.display_name,
  email: row.email,
  passwordHash: row.password_hash,
  permissions: toStringList(row.permissions),
  blocked: toBoolean(row.blocked),
  quota: toQuota(row.quota_requests, row.quota_per),
  createdAt: toNumber(row.created_at),
  updatedAt: toNumber(row.updated_at),
});

/** The columns a user is read from (not the search keys, which only queries read). */
const USER_COLUMNS: (keyof UserRow)[] = [
  'id',
  'uid',
  'username',
  'first_name',
  'last_name',
  'display_name',
  'email',
  'password_hash',
  'permissions',
  'blocked',
  'quota_requests',
  'quota_per',
  'created_at',
  'updated_at',
];

const COLUMN_OF: { readonly [K in keyof Omit<UserChanges, 'quota'>]-?: keyof UserRow } = {
  firstName: 'first_name',
  lastName: 'last_name',
  displayName: 'display_name',
  email: 'email',
  passwordHash: 'password_hash',
  permissions: 'permissions',
  blocked: 'blocked',
};

const CONFLICTS = { id: 'id', uid: 'uid', username: 'username', email: 'email' } as const;

export class KnexUserStore implements UserStore {
  /** PostgreSQL runs transactions side by side: they take row locks; SQLite has one writer at a time. */
  private readonly locksRows: boolean;

  /** What makes a column compare byte by byte on PostgreSQL, whose default collation may not. */
  private readonly bytewise: string;
  private readonly secret: StoredSecret;

  constructor(
    private readonly db: Knex,
    /** How many of the newest users a search reads before the search indexes (see listUserRows); tests lower it. */
    private readonly walkWindow = WALK_WINDOW,
  ) {
    this.locksRows = db.client.config.client === 'pg';
    this.bytewise = this.locksRows ? ' collate "C"' : '';
    this.secret = new StoredSecret(db, LISTING_SECRETS_TABLE, { column: 'name', value: USER_CURSORS });
  }

  async insert(user: User, audit?: AuditEntry): Promise<UserInsertResult> {
    const row: UserRow = {
      id: user.id,
      uid: user.uid,
      username: user.username,
      first_name: user.firstName,
      last_name: user.lastName,
      display_name: user.displayName,
      email: user.email,
      password_hash: user.passwordHash,
      permissions: fromStringList(user.permissions),
      blocked: user.blocked,
      ...quotaColumns(user.quota),
      created_at: user.createdAt,
      updated_at: user.updatedAt,
    };
    try {
      await insertWithAuditEntry(this.db, (db) => db('users').insert({ ...row, ...searchColumnsOf(user) }), audit);
      return { inserted: true };
    } catch (error) {
      const column = uniqueViolationColumn(error);
      if (column && column in CONFLICTS)
        return { inserted: false, conflict: CONFLICTS[column as keyof typeof CONFLICTS] };
      throw error;
    }
  }

  async usernamesStartingWith(prefix: string): Promise<string[]> {
    // LIKE's own wildcards in the prefix stand for themselves; SQLite's LIKE ignores ASCII case, hence the second filter.
    const pattern = `${prefix.replace(/[\\%_]/g, (wildcard) => `\\${wildcard}`)}%`;
    const rows = await this.db<UserRow>('users').select('username').whereRaw("username like ? escape '\\'", [pattern]);
    return rows.flatMap(({ username }) => (username.startsWith(prefix) ? [username] : []));
  }

  async findById(id: string): Promise<User | undefined> {
    const row = await this.db<UserRow>('users').where({ id }).first();
    return row && toUser(row);
  }

  async findByUid(uid: string): Promise<User | undefined> {
    const row = await this.db<UserRow>('users').where({ uid }).first();
    return row && toUser(row);
  }

  async findByUsername(username: string): Promise<User | undefined> {
    const row = await this.db<UserRow>('users').where({ username }).first();
    return row && toUser(row);
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const row = await this.db<UserRow>('users').where({ email }).first();
    return row && toUser(row);
  }

  async listPage(query: UserListQuery): Promise<User[]> {
    return (await listUserRows<UserRow>(this.db, this.bytewise, USER_COLUMNS, query, this.walkWindow)).map(toUser);
  }

  listingSecret(): Promise<Buffer> {
    return this.secret.get();
  }

  async update(id: string, changes: UserChanges, updatedAt: number, audit?: AuditEntry): Promise<UserUpdateResult> {
    const row: Partial<UserRow> = { updated_at: updatedAt };
    for (const [key, value] of Object.entries(changes) as [keyof UserChanges, unknown][]) {
      if (value === undefined) continue;
      if (key === 'quota') {
        Object.assign(row, quotaColumns(changes.quota!));
        continue;
      }
      const column = COLUMN_OF[key];
      (row as Record<string, unknown>)[column] = key === 'permissions' ? fromStringList(value as string[]) : value;
    }
    try {
      const searched = changes.email !== undefined || changes.firstName !== undefined || changes.lastName !== undefined;
      const updatedRows = await this.db.transaction(async (trx) => {
        // The user's row first, as token inserts for them lock it first: the two queue, never deadlock.
        const currentRow = await (this.locksRows
          ? trx<UserRow>('users').where({ id }).forUpdate().first()
          : trx<UserRow>('users').where({ id }).first());
        if (!currentRow) return 0;
        let searchColumns: SearchColumns | undefined;
        if (searched) {
          const current = toUser(currentRow);
          searchColumns = searchColumnsOf({
            email: changes.email ?? current.email,
            firstName: changes.firstName === undefined ? current.firstName : changes.firstName,
            lastName: changes.lastName === undefined ? current.lastName : changes.lastName,
          });
        }
        const updated = await trx('users')
          .where({ id })
          .update({ ...row, ...searchColumns });
        if (changes.passwordHash !== undefined) {
          if (this.locksRows) await holdAdvisoryLock(trx, 'tokenChainDeletes');
          await deleteTokensOfOrigin(trx, id, 'password');
        }
        await appendAuditEntry(trx, audit);
        return updated;
      });
      return { updated: updatedRows === 0 ? undefined : await this.findById(id) };
    } catch (error) {
      if (uniqueViolationColumn(error) === 'email') return { updated: undefined, conflict: 'email' };
      throw error;
    }
  }

  async delete(id: string, audit?: AuditEntry): Promise<boolean> {
    // Tokens go with their user in the same transaction, whether or not the database enforces
    // the foreign key's ON DELETE CASCADE (SQLite needs it switched on per connection); so do the
    // tokens the user issued for others, which live only as long as their issuer, and whatever
    // was minted through any of them.
    return this.db.transaction(async (trx) => {
      // The user's row first, as a token insert for them locks it first: the two queue, never deadlock.
      if (this.locksRows) {
        await trx('users').where({ id }).select('id').forUpdate();
        await holdAdvisoryLock(trx, 'tokenChainDeletes');
      }
      const theirs = await trx('tokens').where({ user_id: id }).orWhere({ issued_by: id }).pluck('id');
      await trx('tokens').where({ user_id: id }).orWhere({ issued_by: id }).delete();
      await deleteHangingOn(trx, theirs);
      const deleted = (await trx('users').where({ id }).delete()) > 0;
      if (deleted) await appendAuditEntry(trx, audit);
      return deleted;
    });
  }
}
