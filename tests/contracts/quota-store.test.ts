import { expect } from 'chai';
import { aToken, aUser } from '../support/mothers.js';
import { storeAdapters, type StoreUnderTest } from './store-adapters.js';

for (const adapter of storeAdapters) {
  describe(`contract: quotas in UserStore and TokenStore (${adapter.name})`, () => {
    let store: StoreUnderTest;
    beforeEach(async () => {
      store = await adapter.open();
    });
    afterEach(async () => store.close());

    it("keeps a user's and a token's quota field for field, and none as null", async () => {
      const user = aUser({ quota: { requests: 1_000_000_000, per: 'month' } });
      await store.users.insert(user);
      expect(await store.users.findById(user.id)).to.deep.equal(user);
      const token = aToken(user.id, { quota: { requests: 3, per: 'day' } });
      const bare = aToken(user.id);
      await store.tokens.insert(token);
      await store.tokens.insert(bare);
      expect(await store.tokens.findById(token.id)).to.deep.equal(token);
      expect(await store.tokens.findBySecretHash(bare.secretHash)).to.deep.equal(bare);
      expect((await store.tokens.findById(bare.id))?.quota).to.equal(null);
    });

    it("sets, changes and removes a user's quota, leaving the rest as it was", async () => {
      const user = aUser({ blocked: true });
      await store.users.insert(user);
      const at = user.updatedAt + 1000;
      const quota = { requests: 50, per: 'day' } as const;
      expect(await store.users.update(user.id, { quota }, at)).to.deep.equal({
        updated: { ...user, quota, updatedAt: at },
      });
      expect(await store.users.update(user.id, { permissions: [] }, at)).to.deep.equal({
        updated: { ...user, quota, permissions: [], updatedAt: at },
      });
      expect(await store.users.update(user.id, { quota: null }, at)).to.deep.equal({
        updated: { ...user, permissions: [], updatedAt: at },
      });
    });

    it("sets, changes and removes a token's quota, leaving the rest as it was", async () => {
      const user = aUser();
      await store.users.insert(user);
      const token = aToken(user.id, { name: 'ci' });
      await store.tokens.insert(token);
      const quota = { requests: 7, per: 'month' } as const;
      expect(await store.tokens.update(token.id, { quota })).to.deep.equal({ ...token, quota });
      expect(await store.tokens.update(token.id, { name: 'deploy' })).to.deep.equal({
        ...token,
        quota,
        name: 'deploy',
      });
      expect(await store.tokens.update(token.id, { quota: null })).to.deep.equal({ ...token, name: 'deploy' });
    });
  });
}
