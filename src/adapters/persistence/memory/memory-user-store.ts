import type { UserInsertResult, UserStore } from '../../../domain/users/ports.js';
import type { User, UserChanges } from '../../../domain/users/user.js';

/** Users in a Map: for tests and for running with `storage: "memory"`. */
export class MemoryUserStore implements UserStore {
  private readonly byId = new Map<string, User>();

  async insert(user: User): Promise<UserInsertResult> {
    if (this.byId.has(user.id)) return { inserted: false, conflict: 'id' };
    for (const other of this.byId.values()) {
      if (other.uid === user.uid) return { inserted: false, conflict: 'uid' };
      if (other.username === user.username) return { inserted: false, conflict: 'username' };
      if (user.email !== null && other.email === user.email) return { inserted: false, conflict: 'email' };
    }
    this.byId.set(user.id, { ...user, permissions: [...user.permissions] });
    return { inserted: true };
  }

  async findById(id: string): Promise<User | undefined> {
    return this.byId.get(id);
  }

  async findByUsername(username: string): Promise<User | undefined> {
    for (const user of this.byId.values()) if (user.username === username) return user;
    return undefined;
  }

  async update(id: string, changes: UserChanges, updatedAt: number): Promise<User | undefined> {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const updated: User = { ...current, ...changes, updatedAt };
    this.byId.set(id, updated);
    return updated;
  }
}
