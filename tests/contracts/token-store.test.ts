import { expect } from 'chai';
import { aToken, aUser } from '../support/mothers.js';
import { storeAdapters, type StoreUnderTest } from './store-adapters.js';

for (const adapter of storeAdapters) {
  describe(`contract: TokenStore (${adapter.name})`, () => {
    let store: StoreUnderTest;
    let userId: string;
    beforeEach(async () => {
      store = await adapter.open();
      const user = aUser();
      await store.users.insert(user);
      userId = user.id;
    });
    afterEach(async () => store.close());

    it('finds an inserted token by secret hash and by id, field for field', async () => {
      const token = aToken(userId, {
        name: 'ci',
        expiresAt: Date.UTC(2027, 0, 1),
        lastUsedAt: Date.UTC(2026, 5, 1),
        uses: 42,
        scopes: ['Cryptography::Encrypt'],
        rateLimit: { requests: 1_000_000_000, perSeconds: 86_400 },
      });
      expect(await store.tokens.insert(token)).to.deep.equal({ inserted: true });
      expect(await store.tokens.findBySecretHash(token.secretHash)).to.deep.equal(token);
      expect(await store.tokens.findById(token.id)).to.deep.equal(token);
    });

    it('answers undefined for tokens it does not have', async () => {
      expect(await store.tokens.findBySecretHash('0'.repeat(64))).to.equal(undefined);
      expect(await store.tokens.findById('00000000-0000-4000-8000-000000000000')).to.equal(undefined);
    });

    it('refuses a duplicate id, secret hash or licence, keeping the first', async () => {
      const first = aToken(userId);
      await store.tokens.insert(first);
      expect(await store.tokens.insert(aToken(userId, { id: first.id }))).to.deep.equal({
        inserted: false,
        conflict: 'id',
      });
      expect(await store.tokens.insert(aToken(userId, { secretHash: first.secretHash }))).to.deep.equal({
        inserted: false,
        conflict: 'secretHash',
      });
      expect(await store.tokens.insert(aToken(userId, { license: first.license }))).to.deep.equal({
        inserted: false,
        conflict: 'license',
      });
      expect(await store.tokens.listByUser(userId)).to.deep.equal([first]);
    });

    it("lists a user's tokens newest first and nobody else's", async () => {
      const other = aUser();
      await store.users.insert(other);
      const older = aToken(userId, { createdAt: 1_000 });
      const newer = aToken(userId, { createdAt: 2_000 });
      await store.tokens.insert(older);
      await store.tokens.insert(aToken(other.id));
      await store.tokens.insert(newer);
      expect(await store.tokens.listByUser(userId)).to.deep.equal([newer, older]);
      expect(await store.tokens.listByUser('00000000-0000-4000-8000-000000000000')).to.deep.equal([]);
    });

    it('lists tokens in use expiring within a span, soonest first, at most `limit`: none disabled, rotated away or outside it', async () => {
      const at = (day: number) => Date.UTC(2026, 10, day);
      const soon = aToken(userId, { expiresAt: at(3) });
      const later = aToken(userId, { expiresAt: at(5) });
      const sameTime = aToken(userId, { expiresAt: at(5) });
      const disabled = aToken(userId, { expiresAt: at(4), disabled: true });
      const past = aToken(userId, { expiresAt: at(1) });
      const beyond = aToken(userId, { expiresAt: at(20) });
      const never = aToken(userId, { expiresAt: null });
      for (const token of [later, soon, disabled, past, beyond, never, sameTime]) await store.tokens.insert(token);
      const byIdThenTime = [soon, ...[later, sameTime].sort((a, b) => (a.id < b.id ? -1 : 1))];
      expect(await store.tokens.expiringBetween(at(2), at(10), 10)).to.deep.equal(byIdThenTime);
      expect(await store.tokens.expiringBetween(at(2), at(10), 1)).to.deep.equal([soon]);
      expect(await store.tokens.expiringBetween(at(3), at(5), 10)).to.deep.equal(byIdThenTime.slice(1));
    });

    it('disables, enables and renames a token, leaving the rest as it was; an unknown id is undefined', async () => {
      const token = aToken(userId, { name: 'ci' });
      await store.tokens.insert(token);
      expect(await store.tokens.update(token.id, { disabled: true })).to.deep.equal({ ...token, disabled: true });
      expect(await store.tokens.update(token.id, { name: 'deploy' })).to.deep.equal({
        ...token,
        disabled: true,
        name: 'deploy',
      });
      expect(await store.tokens.update(token.id, { disabled: false })).to.deep.equal({ ...token, name: 'deploy' });
      expect(await store.tokens.findBySecretHash(token.secretHash)).to.deep.equal({ ...token, name: 'deploy' });
      expect(await store.tokens.update('00000000-0000-4000-8000-000000000000', { disabled: true })).to.equal(undefined);
    });

    it('deletes a token so that its secret no longer finds it', async () => {
      const token = aToken(userId);
      const kept = aToken(userId);
      await store.tokens.insert(token);
      await store.tokens.insert(kept);
      expect(await store.tokens.delete(token.id)).to.equal(true);
      expect(await store.tokens.findBySecretHash(token.secretHash)).to.equal(undefined);
      expect(await store.tokens.delete(token.id)).to.equal(false);
      expect(await store.tokens.findById(kept.id)).to.deep.equal(kept);
    });

    it('keeps the token a token was minted through, and deletes with a token whatever hangs on it, however far down', async () => {
      const root = aToken(userId);
      const child = aToken(userId, { issuedBy: userId, issuedThrough: root.id });
      const grandchild = aToken(userId, { issuedBy: userId, issuedThrough: child.id });
      const sibling = aToken(userId);
      for (const token of [root, child, grandchild, sibling])
        expect(await store.tokens.insert(token)).to.deep.equal({ inserted: true });
      expect(await store.tokens.findById(grandchild.id)).to.deep.equal(grandchild);
      expect(await store.tokens.delete(child.id)).to.equal(true);
      expect(await store.tokens.findById(grandchild.id)).to.equal(undefined);
      expect(await store.tokens.findBySecretHash(grandchild.secretHash)).to.equal(undefined);
      expect(await store.tokens.listByUser(userId)).to.have.deep.members([root, sibling]);
    });

    it('refuses a token minted through one that is gone, storing nothing', async () => {
      const orphan = aToken(userId, { issuedBy: userId, issuedThrough: '00000000-0000-4000-8000-000000000000' });
      expect(await store.tokens.insert(orphan)).to.deep.equal({ inserted: false, refused: 'issuedThroughGone' });
      expect(await store.tokens.findById(orphan.id)).to.equal(undefined);
    });

    it("deletes a chain's root and a user in its middle at the same moment, both wholly, whatever order the rows are stored in", async () => {
      for (let round = 0; round < 20; round += 1) {
        const [middle, end] = [aUser(), aUser()];
        await store.users.insert(middle);
        await store.users.insert(end);
        const root = aToken(userId);
        const link = aToken(middle.id, { issuedBy: userId, issuedThrough: root.id });
        const last = aToken(end.id, { issuedBy: middle.id, issuedThrough: link.id });
        for (const token of [root, link, last])
          expect(await store.tokens.insert(token)).to.deep.equal({ inserted: true });
        // A use rewrites the middle link's row, which PostgreSQL may then store after the last one.
        await store.tokens.recordUsage([{ tokenId: link.id, uses: 1, lastUsedAt: Date.UTC(2026, 10, 1) }]);
        const [rootDeleted, userDeleted] = await Promise.all([
          store.tokens.delete(root.id),
          store.users.delete(middle.id),
        ]);
        expect([rootDeleted, userDeleted]).to.deep.equal([true, true]);
        for (const token of [root, link, last]) expect(await store.tokens.findById(token.id)).to.equal(undefined);
      }
    });

    it('never keeps a token minted through one deleted at the same moment', async () => {
      for (let round = 0; round < 20; round += 1) {
        const parent = aToken(userId);
        await store.tokens.insert(parent);
        const child = aToken(userId, { issuedBy: userId, issuedThrough: parent.id });
        const [, inserted] = await Promise.all([store.tokens.delete(parent.id), store.tokens.insert(child)]);
        expect([{ inserted: true }, { inserted: false, refused: 'issuedThroughGone' }]).to.deep.include(inserted);
        expect(await store.tokens.findById(child.id)).to.equal(undefined);
      }
    });

    it('refuses an owner more than maxLiveTokens tokens unexpired at the new one’s creation, storing nothing', async () => {
      const expired = aToken(userId, { createdAt: 1_000, expiresAt: 5_000 });
      const live = aToken(userId, { createdAt: 2_000, expiresAt: 50_000 });
      const forever = aToken(userId, { createdAt: 3_000 });
      for (const token of [expired, live, forever])
        expect(await store.tokens.insert(token, 3)).to.deep.equal({ inserted: true });
      const third = aToken(userId, { createdAt: 10_000 });
      expect(await store.tokens.insert(third, 3)).to.deep.equal({ inserted: true });
      const fourth = aToken(userId, { createdAt: 10_000 });
      expect(await store.tokens.insert(fourth, 3)).to.deep.equal({ inserted: false, refused: 'liveTokenLimit' });
      expect(await store.tokens.findById(fourth.id)).to.equal(undefined);
      // Once `live` has expired, its place is free; without a limit there is none.
      expect(await store.tokens.insert(aToken(userId, { createdAt: 50_000 }), 3)).to.deep.equal({ inserted: true });
      expect(await store.tokens.insert(aToken(userId, { createdAt: 50_000 }))).to.deep.equal({ inserted: true });
    });

    it('lets exactly as many concurrent inserts pass as the owner has places left', async () => {
      await store.tokens.insert(aToken(userId));
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.tokens.insert(aToken(userId), 3)));
      expect(outcomes.filter((outcome) => outcome.inserted)).to.have.length(2);
      expect(await store.tokens.listByUser(userId)).to.have.length(3);
    });

    it('adds recorded uses and keeps the latest use time, skipping unknown tokens', async () => {
      const token = aToken(userId);
      await store.tokens.insert(token);
      await store.tokens.recordUsage([
        { tokenId: token.id, uses: 3, lastUsedAt: 5_000 },
        { tokenId: '00000000-0000-4000-8000-000000000000', uses: 1, lastUsedAt: 9_000 },
      ]);
      await store.tokens.recordUsage([{ tokenId: token.id, uses: 2, lastUsedAt: 4_000 }]);
      await store.tokens.recordUsage([]);
      expect(await store.tokens.findById(token.id)).to.deep.equal({ ...token, uses: 5, lastUsedAt: 5_000 });
    });
  });
}
