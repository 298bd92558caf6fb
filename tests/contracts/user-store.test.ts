import { expect } from 'chai';
import { aToken, aUser } from '../support/mothers.js';
import { storeAdapters, type StoreUnderTest } from './store-adapters.js';

for (const adapter of storeAdapters) {
  describe(`contract: UserStore (${adapter.name})`, () => {
    let store: StoreUnderTest;
    beforeEach(async () => {
      store = await adapter.open();
    });
    afterEach(async () => store.close());

    it('gives back an inserted user field for field', async () => {
      const user = aUser({ permissions: ['Cryptography::*', '*'], displayName: 'Ada L.', passwordHash: 'scrypt$abc' });
      expect(await store.users.insert(user)).to.deep.equal({ inserted: true });
      expect(await store.users.findById(user.id)).to.deep.equal(user);
      expect(await store.users.findByUsername(user.username)).to.deep.equal(user);
    });

    it('keeps nulls and an empty permission list as they are', async () => {
      const user = aUser({ firstName: null, lastName: null, email: null, permissions: [] });
      await store.users.insert(user);
      expect(await store.users.findById(user.id)).to.deep.equal(user);
    });

    it('finds a user by the email it stores', async () => {
      const user = aUser({ email: 'ada@example.com' });
      await store.users.insert(user);
      await store.users.insert(aUser({ email: null }));
      expect(await store.users.findByEmail('ada@example.com')).to.deep.equal(user);
      expect(await store.users.findByEmail('nobody@example.com')).to.equal(undefined);
    });

    it('answers undefined for a user it does not have', async () => {
      expect(await store.users.findById('00000000-0000-4000-8000-000000000000')).to.equal(undefined);
      expect(await store.users.findByUsername('nobody')).to.equal(undefined);
    });

    it('refuses a second user with the same username, email or uid, keeping the first', async () => {
      const first = aUser();
      await store.users.insert(first);
      expect(await store.users.insert(aUser({ username: first.username }))).to.deep.equal({
        inserted: false,
        conflict: 'username',
      });
      expect(await store.users.insert(aUser({ email: first.email }))).to.deep.equal({
        inserted: false,
        conflict: 'email',
      });
      expect(await store.users.insert(aUser({ uid: first.uid }))).to.deep.equal({ inserted: false, conflict: 'uid' });
      expect(await store.users.findByUsername(first.username)).to.deep.equal(first);
    });

    it('allows many users without an email', async () => {
      expect(await store.users.insert(aUser({ email: null }))).to.deep.equal({ inserted: true });
      expect(await store.users.insert(aUser({ email: null }))).to.deep.equal({ inserted: true });
    });

    it('applies only the given changes and stamps updatedAt', async () => {
      const user = aUser();
      await store.users.insert(user);
      const updated = await store.users.update(user.id, { blocked: true, permissions: ['*'] }, user.updatedAt + 1000);
      const expected = { ...user, blocked: true, permissions: ['*'], updatedAt: user.updatedAt + 1000 };
      expect(updated).to.deep.equal({ updated: expected });
      expect(await store.users.findById(user.id)).to.deep.equal(expected);
    });

    it('updating a user it does not have changes nothing and answers undefined', async () => {
      expect(await store.users.update('00000000-0000-4000-8000-000000000000', { blocked: true }, 1)).to.deep.equal({
        updated: undefined,
      });
    });

    it('finds a user by uid and lists users newest first', async () => {
      const older = aUser({ createdAt: 1_000 });
      const newer = aUser({ createdAt: 2_000 });
      await store.users.insert(newer);
      await store.users.insert(older);
      expect(await store.users.findByUid(newer.uid)).to.deep.equal(newer);
      expect(await store.users.findByUid('no-such-uid')).to.equal(undefined);
      expect(await store.users.listPage({ limit: 10 })).to.deep.equal([newer, older]);
    });

    it('lists the usernames that begin with a prefix exactly, LIKE wildcards and letter case included', async () => {
      for (const username of [
        'ada.king',
        'ada.king2',
        'ada.king17',
        'ada.kingdom',
        'adaxking',
        'ada_king',
        'ada%king',
        'bob.ada.king',
      ]) {
        await store.users.insert(aUser({ username }));
      }
      expect((await store.users.usernamesStartingWith('ada.king')).sort()).to.deep.equal([
        'ada.king',
        'ada.king17',
        'ada.king2',
        'ada.kingdom',
      ]);
      expect(await store.users.usernamesStartingWith('ada_')).to.deep.equal(['ada_king']);
      expect(await store.users.usernamesStartingWith('ada%')).to.deep.equal(['ada%king']);
      expect(await store.users.usernamesStartingWith('ADA.KING')).to.deep.equal([]);
      expect(await store.users.usernamesStartingWith('nobody')).to.deep.equal([]);
    });

    it("refuses to give a user another user's email and changes nothing then", async () => {
      const first = aUser();
      const second = aUser();
      await store.users.insert(first);
      await store.users.insert(second);
      expect(await store.users.update(second.id, { email: first.email, displayName: 'x' }, 5)).to.deep.equal({
        updated: undefined,
        conflict: 'email',
      });
      expect(await store.users.findById(second.id)).to.deep.equal(second);
    });

    it('deletes a user with all of their tokens, and frees the email', async () => {
      const user = aUser();
      const other = aUser();
      await store.users.insert(user);
      await store.users.insert(other);
      const tokens = [aToken(user.id), aToken(user.id)];
      const kept = aToken(other.id);
      for (const token of [...tokens, kept]) await store.tokens.insert(token);
      expect(await store.users.delete(user.id)).to.equal(true);
      expect(await store.users.findById(user.id)).to.equal(undefined);
      for (const token of tokens) expect(await store.tokens.findBySecretHash(token.secretHash)).to.equal(undefined);
      expect(await store.tokens.findById(kept.id)).to.deep.equal(kept);
      expect(await store.users.insert(aUser({ email: user.email }))).to.deep.equal({ inserted: true });
      expect(await store.users.delete(user.id)).to.equal(false);
    });

    it('deletes with a user the tokens they issued for others, and keeps the others of those users', async () => {
      const issuer = aUser();
      const owner = aUser();
      const bystander = aUser();
      for (const user of [issuer, owner, bystander]) await store.users.insert(user);
      const lent = aToken(owner.id, { issuedBy: issuer.id });
      const own = aToken(owner.id);
      const lentByBystander = aToken(owner.id, { issuedBy: bystander.id });
      for (const token of [lent, own, lentByBystander]) await store.tokens.insert(token);
      expect(await store.users.delete(issuer.id)).to.equal(true);
      expect(await store.tokens.findById(lent.id)).to.equal(undefined);
      expect(await store.tokens.findBySecretHash(lent.secretHash)).to.equal(undefined);
      expect(await store.tokens.listByUser(owner.id)).to.have.deep.members([own, lentByBystander]);
    });

    it('deletes with a user whatever was minted through their tokens, however far down, and nothing else', async () => {
      const [a, l, m, n] = [aUser(), aUser(), aUser(), aUser()];
      for (const user of [a, l, m, n]) await store.users.insert(user);
      const lOwn = aToken(l.id);
      const t1 = aToken(l.id, { issuedBy: a.id });
      const t2 = aToken(m.id, { issuedBy: l.id, issuedThrough: t1.id });
      const t3 = aToken(n.id, { issuedBy: m.id, issuedThrough: t2.id });
      const nOwn = aToken(n.id);
      for (const token of [lOwn, t1, t2, t3, nOwn])
        expect(await store.tokens.insert(token)).to.deep.equal({ inserted: true });
      expect(await store.users.delete(a.id)).to.equal(true);
      for (const token of [t1, t2, t3]) expect(await store.tokens.findById(token.id)).to.equal(undefined);
      expect(await store.tokens.listByUser(l.id)).to.deep.equal([lOwn]);
      expect(await store.tokens.listByUser(n.id)).to.deep.equal([nOwn]);
    });
  });
}
