import { ContainerModule } from 'inversify';
import type { Knex } from 'knex';
import { readBundledFacts } from '../adapters/persistence/bundled-facts.js';
import { KnexContentStore } from '../adapters/persistence/knex/knex-content-store.js';
import { MemoryContentStore } from '../adapters/persistence/memory/memory-content-store.js';
import { KnexTokenStore } from '../adapters/persistence/knex/knex-token-store.js';
import { KnexUserStore } from '../adapters/persistence/knex/knex-user-store.js';
import { MemoryTables } from '../adapters/persistence/memory/memory-tables.js';
import { MemoryTokenStore } from '../adapters/persistence/memory/memory-token-store.js';
import { MemoryUserStore } from '../adapters/persistence/memory/memory-user-store.js';
import { ContentStore } from '../domain/content/ports.js';
import { TokenStore } from '../domain/tokens/ports.js';
import { UserStore } from '../domain/users/ports.js';
import { Database } from './identifiers.js';

/** The stores on an open database, or in memory when there is none. */
export const storageModule = (db: Knex | undefined): ContainerModule =>
  new ContainerModule(({ bind }) => {
    if (db) {
      bind(Database).toConstantValue(db);
      bind(UserStore).toConstantValue(new KnexUserStore(db));
      bind(TokenStore).toConstantValue(new KnexTokenStore(db));
      bind(ContentStore).toConstantValue(new KnexContentStore(db));
    } else {
      const tables = new MemoryTables();
      bind(UserStore).toConstantValue(new MemoryUserStore(tables));
      bind(TokenStore).toConstantValue(new MemoryTokenStore(tables));
      // What the migration loads into a database: the bundled cat and dog facts.
      bind(ContentStore).toConstantValue(new MemoryContentStore(readBundledFacts(Date.now())));
    }
  });
