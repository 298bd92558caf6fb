import type { AuditEntry } from '../../../../domain/audit.js';
import { identifier } from '../../../../domain/identifier.js';
import type { User, UserChanges } from '../../../../domain/identity/user.js';

export type UserInsertResult =
  { readonly inserted: true } | { readonly inserted: false; readonly conflict: 'username' | 'email' | 'uid' | 'id' };
export type UserUpdateResult =
  { readonly updated: User } | { readonly updated: undefined; readonly conflict?: 'email' };

/** Where a user stands in the newest-first order: a page goes on after the last user it showed. */
export interface UserPosition {
  readonly createdAt: number;
  readonly id: string;
}

export interface UserListQuery {
  /**
   * Already folded (see `foldForSearch`): users whose username, or folded email, full name or
   * last name, begins with it, exactly.
   */
  readonly prefix?: string;
  readonly blocked?: boolean;
  /** Users whose permissions include at least one of these names, as written (no wildcard is expanded here). */
  readonly holdingAnyOf?: readonly string[];
  /** Only users after this position in the order, whether or not a user still stands there. */
  readonly after?: UserPosition;
  readonly limit: number;
}

/**
 * Where users live. Methods reject only on outages (the store could not answer);
 * expected outcomes such as "not found" or "duplicate" are values. A method that changes something
 * takes the audit entry that reports the change and writes it in the same step, when and only when
 * the change is made (a refused or failed change writes none, an entry that cannot be written fails
 * the change).
 */
export interface UserStore {
  insert(user: User, audit?: AuditEntry): Promise<UserInsertResult>;
  findById(id: string): Promise<User | undefined>;
  findByUid(uid: string): Promise<User | undefined>;
  findByUsername(username: string): Promise<User | undefined>;
  /** By the stored (lower-cased) email. */
  findByEmail(email: string): Promise<User | undefined>;
  /** Every username that begins with `prefix` exactly (case counts), in no particular order. */
  usernamesStartingWith(prefix: string): Promise<string[]>;
  /**
   * Users newest first (by `createdAt`, then by `id`, both descending, so that the order is total)
   * that pass every filter given, at most `limit` of them.
   */
  listPage(query: UserListQuery): Promise<User[]>;
  /**
   * 32 random bytes made once per store and kept with it, the same for every process that opens
   * it: what list cursors are signed with, so that one made by any instance is honoured by all.
   */
  listingSecret(): Promise<Buffer>;
  /**
   * Applies the changes and stamps `updatedAt`. `updated` is undefined when the user does not
   * exist, or, with `conflict`, when the new email belongs to another user (nothing changes then).
   * A new password hash ends the user's password sessions in the same step: their tokens of origin
   * `password` are deleted, with whatever hangs on them.
   */
  update(id: string, changes: UserChanges, updatedAt: number, audit?: AuditEntry): Promise<UserUpdateResult>;
  /**
   * Deletes the user and, in the same step, every token of theirs, every token they issued for
   * somebody else, and every token minted through any of those, however far down (nothing of a
   * deleted user is kept, nor anything that hung on them); false when there was none.
   */
  delete(id: string, audit?: AuditEntry): Promise<boolean>;
}
export const UserStore = identifier<UserStore>('UserStore');

/**
 * Hashing and checking passwords; how costly a hash is is the adapter's setting (scrypt in
 * production, see adapters/scrypt-passwords.ts; a fast one in memory for tests).
 */
export interface Passwords {
  hash(password: string): Promise<string>;
  verify(password: string, storedHash: string): Promise<boolean>;
  /** A hash no password matches, as costly to verify against as a real one. */
  hashNobodyKnows(): Promise<string>;
}
export const Passwords = identifier<Passwords>('Passwords');
