import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import knex, { type Knex } from 'knex';
import { migrationsOf } from '../../src/composition/families.js';
import { migrateToLatest, openDatabase } from '../../src/platform/persistence/database.js';
import type { User } from '../../src/domain/identity/user.js';
import { KnexUserStore } from '../../src/families/users-and-tokens/adapters/knex/knex-user-store.js';
import { MemoryUserStore } from '../../src/families/users-and-tokens/adapters/memory/memory-user-store.js';
import type { UserListQuery } from '../../src/families/users-and-tokens/domain/users/ports.js';
import { foldForSearch } from '../../src/families/users-and-tokens/domain/users/user-search.js';
import { POSTGRES_URL, sqlDatabases, type TestDatabase } from '../support/databases.js';
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
      // A window of 1,000 holds every user here; one of 1, 3 or 7 leaves most of a page to a further
      // walk, as far as the matches in the window predict, and to the search indexes after it.
      const stores = [1, 3, 7, 1_000].map((window) => new KnexUserStore(opened.db, window));
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

/** Storage of each kind with nothing applied yet, and how to throw it away. */
const unmigrated: { name: string; open: () => Promise<{ db: Knex; drop: () => Promise<void> }> }[] = [
  {
    name: 'SQLite',
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'utility-api-backfill-'));
      const db = openDatabase({ client: 'sqlite', filename: join(dir, 'db.sqlite') });
      return {
        db,
        drop: async () => {
          await db.destroy();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  ...(POSTGRES_URL
    ? [
        {
          name: 'PostgreSQL',
          open: async () => {
            const schema = `test_${randomBytes(6).toString('hex')}`;
            const admin = knex({ client: 'pg', connection: POSTGRES_URL, pool: { min: 0, max: 1 } });
            await admin.raw('create schema ??', [schema]);
            const db = openDatabase({ client: 'postgres', url: POSTGRES_URL!, schema });
            return {
              db,
              drop: async () => {
                await db.destroy();
                await admin.raw('drop schema ?? cascade', [schema]);
                await admin.destroy();
              },
            };
          },
        },
      ]
    : []),
];

for (const kind of unmigrated) {
  describe(`migration 0010 on ${kind.name}: users stored before it are found by a search`, () => {
    it('fills the folded keys of every existing user, over several batches', async () => {
      const { db, drop } = await kind.open();
      try {
        await migrateToLatest(
          db,
          migrationsOf().filter((migration) => migration.name < '0010'),
        );
        const before = Array.from({ length: 1_203 }, (_, n) =>
          aUser({
            username: `old${n}`,
            firstName: n === 1_202 ? 'Zoë' : 'Ada',
            lastName: 'Ångström',
            email: `Old${n}@Example.com`,
          }),
        );
        for (let start = 0; start < before.length; start += 200)
          await db('users').insert(
            before.slice(start, start + 200).map((user) => ({
              id: user.id,
              uid: user.uid,
              username: user.username,
              first_name: user.firstName,
              last_name: user.lastName,
              display_name: null,
              email: user.email,
              password_hash: null,
              permissions: JSON.stringify(user.permissions),
              blocked: false,
              created_at: user.createdAt,
              updated_at: user.updatedAt,
            })),
          );
        await migrateToLatest(db, migrationsOf());
        const store = new KnexUserStore(db);
        const search = async (query: string) =>
          (await store.listPage({ prefix: foldForSearch(query), limit: 2_000 })).map((user) => user.username);
        expect(await search('zoe angs')).to.deep.equal(['old1202']);
        expect(await search('angstrom')).to.have.length(1_203);
        expect(await search('OLD1201@')).to.deep.equal(['old1201']);
        expect((await search('ada ångström')).length).to.equal(1_202);
      } finally {
        await drop();
      }
    });
  });
}
