import type { UserInsertResult, UserListQuery, UserStore, UserUpdateResult } from '../../domain/users/ports.js';
import { matchesSearch } from '../../domain/users/user-search.js';
import type { User, UserChanges } from '../../../../domain/identity/user.js';
import { MemoryTables } from './memory-tables.js';
import type { AuditEntry } from '../../../../domain/audit.js';
import { MemoryAuditTrail } from '../../../../platform/audit/memory-audit-trail.js';

/** Users in a Map: for tests and for running with `storage: "memory"`. */
export class MemoryUserStore implements UserStore {
  constructor(
    private readonly tables = new MemoryTables(),
    private readonly trail = new MemoryAuditTrail(),
  ) {}

  async insert(user: User, audit?: AuditEntry): Promise<UserInsertResult> {
    if (this.tables.users.has(user.id)) return { inserted: false, conflict: 'id' };
    for (const other of this.tables.users.values()) {
      if (other.uid === user.uid) return { inserted: false, conflict: 'uid' };
      if (other.username === user.username) return { inserted: false, conflict: 'username' };
      if (user.email !== null && other.email === user.email) return { inserted: false, conflict: 'email' };
    }
    this.tables.users.set(user.id, { ...user, permissions: [...user.permissions] });
    this.trail.append(audit);
    return { inserted: true };
  }

  async findById(id: string): Promise<User | undefined> {
    return this.tables.users.get(id);
  }

  async findByUid(uid: string): Promise<User | undefined> {
    for (const user of this.tables.users.values()) if (user.uid === uid) return user;
    return undefined;
  }

  async findByUsername(username: string): Promise<User | undefined> {
    for (const user of this.tables.users.values()) if (user.username === username) return user;
    return undefined;
  }

  async findByEmail(email: string): Promise<User | undefined> {
    for (const user of this.tables.users.values()) if (user.email === email) return user;
    return undefined;
  }

  async usernamesStartingWith(prefix: string): Promise<string[]> {
    return [...this.tables.users.values()].flatMap(({ username }) => (username.startsWith(prefix) ? [username] : []));
  }

  async listPage({ prefix, blocked, holdingAnyOf, after, limit }: UserListQuery): Promise<User[]> {
    const newestFirst = (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }) =>
      b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
    return [...this.tables.users.values()]
      .filter(
        (user) =>
          (after === undefined || newestFirst(after, user) < 0) &&
          (prefix === undefined || matchesSearch(user, prefix)) &&
          (blocked === undefined || user.blocked === blocked) &&
          (holdingAnyOf === undefined || user.permissions.some((held) => holdingAnyOf.includes(held))),
      )
      .sort(newestFirst)
      .slice(0, limit);
  }

  async listingSecret(): Promise<Buffer> {
    return this.tables.listingSecret;
  }

  async update(id: string, changes: UserChanges, updatedAt: number, audit?: AuditEntry): Promise<UserUpdateResult> {
    const current = this.tables.users.get(id);
    if (!current) return { updated: undefined };
    if (changes.email) {
      for (const other of this.tables.users.values()) {
        if (other.id !== id && other.email === changes.email) return { updated: undefined, conflict: 'email' };
      }
    }
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const updated: User = { ...current, ...defined, updatedAt };
    this.tables.users.set(id, updated);
    if (changes.passwordHash !== undefined)
      for (const token of [...this.tables.tokens.values()])
        if (token.userId === id && token.origin === 'password') this.tables.deleteToken(token.id);
    this.trail.append(audit);
    return { updated };
  }

  async delete(id: string, audit?: AuditEntry): Promise<boolean> {
    if (!this.tables.users.delete(id)) return false;
    // deleteToken takes what hangs on each with it: a token already taken is simply not found again.
    for (const token of [...this.tables.tokens.values()])
      if (token.userId === id || token.issuedBy === id) this.tables.deleteToken(token.id);
    this.trail.append(audit);
    return true;
  }
}
