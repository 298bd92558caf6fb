import { expect } from 'chai';
import type { User } from '../../src/domain/identity/user.js';
import { foldForSearch } from '../../src/families/users-and-tokens/domain/users/user-search.js';
import { aUser } from '../support/mothers.js';
import { storeAdapters, type StoreUnderTest } from './store-adapters.js';

const usernamesOf = (users: readonly User[]) => users.map((user) => user.username);

for (const adapter of storeAdapters) {
  describe(`contract: UserStore listing (${adapter.name})`, () => {
    let store: StoreUnderTest;
    beforeEach(async () => {
      store = await adapter.open();
    });
    afterEach(async () => store.close());

    const insert = async (...users: User[]) => {
      for (const user of users) expect(await store.users.insert(user)).to.deep.equal({ inserted: true });
    };
    const search = async (query: string) =>
      usernamesOf(await store.users.listPage({ prefix: foldForSearch(query), limit: 100 })).sort();

    it('lists newest first, the id breaking ties, at most limit, and goes on after a position', async () => {
      const oldest = aUser({ createdAt: 1_000 });
      const tiedLow = aUser({ createdAt: 2_000, id: '00000000-0000-4000-8000-00000000000a' });
      const tiedHigh = aUser({ createdAt: 2_000, id: '00000000-0000-4000-8000-00000000000b' });
      const newest = aUser({ createdAt: 3_000 });
      await insert(tiedLow, oldest, newest, tiedHigh);
      expect(await store.users.listPage({ limit: 10 })).to.deep.equal([newest, tiedHigh, tiedLow, oldest]);
      expect(await store.users.listPage({ limit: 2 })).to.deep.equal([newest, tiedHigh]);
      expect(await store.users.listPage({ limit: 2, after: tiedHigh })).to.deep.equal([tiedLow, oldest]);
      // A position holds whether or not its user is still there.
      expect(await store.users.delete(tiedHigh.id)).to.equal(true);
      expect(await store.users.listPage({ limit: 10, after: tiedHigh })).to.deep.equal([tiedLow, oldest]);
      expect(await store.users.listPage({ limit: 10, after: { createdAt: 2_000, id: '0' } })).to.deep.equal([oldest]);
      expect(await store.users.listPage({ limit: 10, after: oldest })).to.deep.equal([]);
    });

    it('finds by the prefix of a username, email, first, last or full name, whatever the case and accents', async () => {
      await insert(
        aUser({ username: 'zoe.obrien', firstName: 'Zoë', lastName: "O'Brien", email: 'zoe@example.com' }),
        aUser({ username: 'ada', firstName: 'Ada', lastName: 'Lovelace', email: 'countess@example.org' }),
        aUser({ username: 'grace', firstName: null, lastName: 'Hopper', email: null }),
        aUser({ username: 'noname', firstName: 'Ærøskøbing', lastName: null, email: 'ÉLAN@example.com' }),
      );
      expect(await search('ZOË')).to.deep.equal(['zoe.obrien']);
      expect(await search('zoe o')).to.deep.equal(['zoe.obrien']);
      expect(await search("o'b")).to.deep.equal(['zoe.obrien']);
      expect(await search('LOVE')).to.deep.equal(['ada']);
      expect(await search('ada lovelace')).to.deep.equal(['ada']);
      expect(await search('countess@')).to.deep.equal(['ada']);
      expect(await search('hopp')).to.deep.equal(['grace']);
      expect(await search('gr')).to.deep.equal(['grace']);
      // Letters without an accent to drop are spelled as typed without the key, whichever is searched.
      expect(await search('aerosk')).to.deep.equal(['noname']);
      expect(await search('ærøsk')).to.deep.equal(['noname']);
      expect(await search('elan@')).to.deep.equal(['noname']);
      // A prefix, never a part from the middle.
      expect(await search('lace')).to.deep.equal([]);
      expect(await search('example')).to.deep.equal([]);
      expect(await search('ada lovelacex')).to.deep.equal([]);
    });

    it('takes the characters of a prefix as themselves, SQL and glob wildcards and the last code points included', async () => {
      await insert(
        aUser({ username: 'a_b', firstName: 'A%b', lastName: 'x*y', email: 'q?r@example.com' }),
        aUser({ username: 'axb', firstName: 'Axb', lastName: 'xzy', email: 'qzr@example.com' }),
        aUser({ username: 'emoji', firstName: '😀 Smile', lastName: '[br]acket', email: null }),
        aUser({ username: 'last', firstName: 'z\u{10FFFF}', lastName: '\uD7FFend', email: null }),
      );
      expect(await search('a_')).to.deep.equal(['a_b']);
      expect(await search('a%')).to.deep.equal(['a_b']);
      expect(await search('x*')).to.deep.equal(['a_b']);
      expect(await search('q?')).to.deep.equal(['a_b']);
      expect(await search('[br')).to.deep.equal(['emoji']);
      expect(await search('😀')).to.deep.equal(['emoji']);
      expect(await search('z\u{10FFFF}')).to.deep.equal(['last']);
      expect(await search('\uD7FF')).to.deep.equal(['last']);
    });

    it('filters by blocked and by the permissions held, written as they are', async () => {
      const blocked = aUser({ blocked: true, permissions: ['Cryptography::*'] });
      const all = aUser({ permissions: ['*'] });
      const one = aUser({ permissions: ['Cryptography::Encrypt', 'Users::Read'] });
      const none = aUser({ permissions: [] });
      const lookalike = aUser({ permissions: ['Cryptography::Encrypted_'] });
      await insert(blocked, all, one, none, lookalike);
      const list = async (query: Parameters<StoreUnderTest['users']['listPage']>[0]) =>
        usernamesOf(await store.users.listPage(query)).sort();
      expect(await list({ limit: 10, blocked: true })).to.deep.equal([blocked.username]);
      expect(await list({ limit: 10, blocked: false })).to.deep.equal(
        [all, one, none, lookalike].map((user) => user.username).sort(),
      );
      expect(await list({ limit: 10, holdingAnyOf: ['Cryptography::Encrypt'] })).to.deep.equal([one.username]);
      expect(
        await list({ limit: 10, holdingAnyOf: ['Cryptography::Encrypt', 'Cryptography::*', '*'], blocked: false }),
      ).to.deep.equal([all.username, one.username].sort());
      expect(await list({ limit: 10, holdingAnyOf: ['Cryptography::Encrypted%'] })).to.deep.equal([]);
      expect(
        await list({ limit: 10, holdingAnyOf: ['Users::Read'], prefix: foldForSearch(one.username) }),
      ).to.deep.equal([one.username]);
    });

    it('searches what a user is called now, after their names or email change', async () => {
      const user = aUser({ username: 'renamed', firstName: 'Old', lastName: 'Name', email: 'old@example.com' });
      await insert(user);
      await store.users.update(user.id, { firstName: 'Émile', lastName: null }, user.updatedAt + 1);
      expect(await search('old')).to.deep.equal(['renamed']);
      expect(await search('emile')).to.deep.equal(['renamed']);
      expect(await search('name')).to.deep.equal([]);
      await store.users.update(user.id, { email: 'new@example.com' }, user.updatedAt + 2);
      expect(await search('old')).to.deep.equal([]);
      expect(await search('new@')).to.deep.equal(['renamed']);
      await store.users.update(user.id, { lastName: 'Zola' }, user.updatedAt + 3);
      expect(await search('emile zola')).to.deep.equal(['renamed']);
      expect(await search('zol')).to.deep.equal(['renamed']);
    });

    it('keeps one listing secret of 32 bytes, the same for every process on the storage', async () => {
      const secret = await store.users.listingSecret();
      expect(secret).to.have.length(32);
      expect((await store.users.listingSecret()).equals(secret)).to.equal(true);
      expect((await store.again().listingSecret()).equals(secret)).to.equal(true);
      const elsewhere = await adapter.open();
      try {
        expect((await elsewhere.users.listingSecret()).equals(secret)).to.equal(false);
      } finally {
        await elsewhere.close();
      }
    });
  });
}
