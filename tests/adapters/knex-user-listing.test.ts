import { expect } from 'chai';
import type { User } from '../../src/domain/identity/user.js';
import { KnexUserStore } from '../../src/families/users-and-tokens/adapters/knex/knex-user-store.js';
import { MemoryUserStore } from '../../src/families/users-and-tokens/adapters/memory/memory-user-store.js';
import type { UserListQuery } from '../../src/families/users-and-tokens/domain/users/ports.js';
import { foldForSearch } from '../../src/families/users-and-tokens/domain/users/user-search.js';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';
import { aUser } from '../support/mothers.js';

const FIRST = ['Ada', 'Zoë', 'Alan', 'Émile', 'Zola'];
const LAST = ['Lovelace', 'Turing', 'Ångström', 'Zeno'];

for (const database of sqlDatabases) {
  describe(`adapter: the Knex user store walks the newest users and searches the older ones, alike (${database.name})`, () => {
    let opened: TestDatabase;
    const memory = new MemoryUserStore();
    const users: User[] = [];
    before(async () => {
      opened = await database.open();
      const store = new KnexUserStore(opened.db);
      for (let n = 0; n < 60; n++) {
        // Pairs share a millisecond, so that the id decides between them.
        const user = aUser({
          firstName: FIRST[n % FIRST.length]!,
          lastName: LAST[n % LAST.length]!,
          blocked: n % 7 === 0,
          permissions: n % 3 === 0 ? ['Cryptography::*'] : [],
          createdAt: 1_000 + Math.floor(n / 2),
        });
        users.push(user);
        await store.insert(user);
        await memory.insert(user);
      }
    });
    after(async () => opened?.drop());

    it('answers every page as the memory store does, whether the newest it walks hold the page or not', async () => {
      // A window of 1,000 holds every user here; one of 1 or 7 leaves most of a page to the search indexes.
      const stores = [1, 7, 1_000].map((window) => new KnexUserStore(opened.db, window));
      const queries: UserListQuery[] = [];
      for (const prefix of ['a', 'z', 'zo', 'zoe', 'emile t', 'ang', 'user1', 'nobody', ''])
        for (const extra of [{}, { blocked: false }, { holdingAnyOf: ['Cryptography::*'] }])
          for (const limit of [1, 5, 100]) queries.push({ prefix: foldForSearch(prefix), limit, ...extra });
      let beyondWindow = 0;
      for (const query of queries) {
        const expected = await memory.listPage(query);
        if (expected.length > 7) beyondWindow++;
        for (const store of stores) expect(await store.listPage(query), JSON.stringify(query)).to.deep.equal(expected);
        // From a position too, as a page after the first is asked.
        for (const after of [expected[0], users[40]]) {
          if (after === undefined) continue;
          const rest = await memory.listPage({ ...query, after });
          for (const store of stores) expect(await store.listPage({ ...query, after })).to.deep.equal(rest);
        }
      }
      expect(beyondWindow).to.be.greaterThan(10);
    });
  });
}
