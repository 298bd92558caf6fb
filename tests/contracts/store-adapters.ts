import type { AuditTrail } from '../../src/domain/audit.js';
import { KnexAuditTrail } from '../../src/platform/audit/knex-audit-trail.js';
import { MemoryAuditTrail } from '../../src/platform/audit/memory-audit-trail.js';
import { KnexTokenStore } from '../../src/families/users-and-tokens/adapters/knex/knex-token-store.js';
import { KnexUserStore } from '../../src/families/users-and-tokens/adapters/knex/knex-user-store.js';
import { MemoryTables } from '../../src/families/users-and-tokens/adapters/memory/memory-tables.js';
import { MemoryTokenStore } from '../../src/families/users-and-tokens/adapters/memory/memory-token-store.js';
import { MemoryUserStore } from '../../src/families/users-and-tokens/adapters/memory/memory-user-store.js';
import type { TokenStore } from '../../src/families/users-and-tokens/domain/tokens/ports.js';
import type { UserStore } from '../../src/families/users-and-tokens/domain/users/ports.js';
import { sqlDatabases } from '../support/databases.js';

export interface StoreUnderTest {
  readonly users: UserStore;
  readonly tokens: TokenStore;
  /** The audit trail the stores write their entries to. */
  readonly trail: AuditTrail;
  /** Another user store on the same storage, as a second process would open it. */
  again(): UserStore;
  close(): Promise<void>;
}

/** Every adapter of the user and token ports, each opened fresh for one test. */
export const storeAdapters: { name: string; open: () => Promise<StoreUnderTest> }[] = [
  {
    name: 'memory',
    open: async () => {
      const tables = new MemoryTables();
      const trail = new MemoryAuditTrail();
      return {
        users: new MemoryUserStore(tables, trail),
        tokens: new MemoryTokenStore(tables, trail),
        trail,
        again: () => new MemoryUserStore(tables),
        close: async () => {},
      };
    },
  },
  ...sqlDatabases.map(({ name, open }) => ({
    name: `Knex on ${name}`,
    open: async (): Promise<StoreUnderTest> => {
      const database = await open();
      return {
        users: new KnexUserStore(database.db),
        tokens: new KnexTokenStore(database.db),
        trail: new KnexAuditTrail(database.db),
        again: () => new KnexUserStore(database.db),
        close: database.drop,
      };
    },
  })),
];
