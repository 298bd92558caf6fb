import type { User, UserChanges } from './user.js';

export type UserInsertResult = { readonly inserted: true } | { readonly inserted: false; readonly conflict: 'username' | 'email' | 'uid' | 'id' };

/**
 * Where users live. Methods reject only on outages (the store could not answer);
 * expected outcomes such as "not found" or "duplicate" are values.
 */
export interface UserStore {
  insert(user: User): Promise<UserInsertResult>;
  findById(id: string): Promise<User | undefined>;
  findByUsername(username: string): Promise<User | undefined>;
  /** Applies the changes and stamps `updatedAt`; undefined when the user does not exist. */
  update(id: string, changes: UserChanges, updatedAt: number): Promise<User | undefined>;
}
export const UserStore = Symbol.for('UserStore');
