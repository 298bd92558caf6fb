import { identifier } from '../../../../domain/identifier.js';
import type { User, UserChanges } from '../../../../domain/identity/user.js';

export type UserInsertResult =
  { readonly inserted: true } | { readonly inserted: false; readonly conflict: 'username' | 'email' | 'uid' | 'id' };
export type UserUpdateResult =
  { readonly updated: User } | { readonly updated: undefined; readonly conflict?: 'email' };

/**
 * Where users live. Methods reject only on outages (the store could not answer);
 * expected outcomes such as "not found" or "duplicate" are values.
 */
export interface UserStore {
  insert(user: User): Promise<UserInsertResult>;
  findById(id: string): Promise<User | undefined>;
  findByUid(uid: string): Promise<User | undefined>;
  findByUsername(username: string): Promise<User | undefined>;
  /** By the stored (lower-cased) email. */
  findByEmail(email: string): Promise<User | undefined>;
  /** Every username that begins with `prefix` exactly (case counts), in no particular order. */
  usernamesStartingWith(prefix: string): Promise<string[]>;
  /** Oldest first. */
  list(): Promise<User[]>;
  /**
   * Applies the changes and stamps `updatedAt`. `updated` is undefined when the user does not
   * exist, or, with `conflict`, when the new email belongs to another user (nothing changes then).
   */
  update(id: string, changes: UserChanges, updatedAt: number): Promise<UserUpdateResult>;
  /**
   * Deletes the user and, in the same step, every token of theirs, every token they issued for
   * somebody else, and every token minted through any of those, however far down (nothing of a
   * deleted user is kept, nor anything that hung on them); false when there was none.
   */
  delete(id: string): Promise<boolean>;
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
