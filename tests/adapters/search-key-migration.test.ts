import { expect } from 'chai';
import { KnexUserStore } from '../../src/families/users-and-tokens/adapters/knex/knex-user-store.js';
import { USERS_AND_TOKENS_MIGRATIONS } from '../../src/families/users-and-tokens/adapters/knex/migrations.js';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';
import { aUser } from '../support/mothers.js';

const spelledOut = USERS_AND_TOKENS_MIGRATIONS.find(({ name }) => name === '0016_search_keys_spell_out_letters')!;

for (const { name, open } of sqlDatabases) {
  describe(`migration 0016: stored search keys spell out the letters without an accent (${name})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await open();
    });
    afterEach(() => database.drop());

    it('folds again the users whose keys were stored with ø, ß and the like, and finds them as people type them', async () => {
      const store = new KnexUserStore(database.db);
      const soren = aUser({ firstName: 'Søren', lastName: 'Straße', email: 'søren@example.dk' });
      const plain = aUser({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
      await store.insert(soren);
      await store.insert(plain);
      // As the keys were stored before this migration: accents dropped, those letters kept.
      await database.db('users').where({ id: soren.id }).update({
        search_email: 'søren@example.dk',
        search_full_name: 'søren straße',
        search_last_name: 'straße',
      });
      const plainBefore = await database.db('users').where({ id: plain.id }).first();
      expect(await store.listPage({ prefix: 'soren', limit: 10 })).to.deep.equal([]);

      await spelledOut.up(database.db);

      expect(
        await database
          .db('users')
          .where({ id: soren.id })
          .first('search_email', 'search_full_name', 'search_last_name'),
      ).to.deep.equal({
        search_email: 'soren@example.dk',
        search_full_name: 'soren strasse',
        search_last_name: 'strasse',
      });
      expect(await database.db('users').where({ id: plain.id }).first()).to.deep.equal(plainBefore);
      for (const prefix of ['soren', 'strasse', 'soren str'])
        expect(
          (await store.listPage({ prefix, limit: 10 })).map((user) => user.id),
          prefix,
        ).to.deep.equal([soren.id]);
    });
  });
}
