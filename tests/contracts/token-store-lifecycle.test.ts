import { expect } from 'chai';
import { aToken, aUser } from '../support/mothers.js';
import { storeAdapters, type StoreUnderTest } from './store-adapters.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

for (const adapter of storeAdapters) {
  describe(`contract: TokenStore rotation, origins and addresses (${adapter.name})`, () => {
    let store: StoreUnderTest;
    let userId: string;
    beforeEach(async () => {
      store = await adapter.open();
      const user = aUser();
      await store.users.insert(user);
      userId = user.id;
    });
    afterEach(async () => store.close());

    it('keeps origin, allowed addresses and rotation links field for field', async () => {
      const token = aToken(userId, {
        origin: 'password',
        allowedAddresses: ['203.0.113.0/24', '2001:db8::/32'],
        rotatedTo: UNKNOWN,
        rotationEndsAt: Date.UTC(2027, 0, 1),
        rotatedFrom: '11111111-1111-4111-8111-111111111111',
        lineage: '22222222-2222-4222-8222-222222222222',
      });
      expect(await store.tokens.insert(token)).to.deep.equal({ inserted: true });
      expect(await store.tokens.findBySecretHash(token.secretHash)).to.deep.equal(token);
      expect(await store.tokens.findById(token.id)).to.deep.equal(token);
    });

    it('binds a token to networks, changes them and frees it again, leaving the rest as it was', async () => {
      const token = aToken(userId, { name: 'ci' });
      await store.tokens.insert(token);
      const bound = { ...token, allowedAddresses: ['10.0.0.0/8'] };
      expect(await store.tokens.update(token.id, { allowedAddresses: ['10.0.0.0/8'] })).to.deep.equal(bound);
      expect(await store.tokens.update(token.id, { name: 'deploy' })).to.deep.equal({ ...bound, name: 'deploy' });
      expect(await store.tokens.update(token.id, { allowedAddresses: null })).to.deep.equal({
        ...token,
        name: 'deploy',
      });
    });

    it('rotates a token once: the replacement is stored and the old one names it and when it stops', async () => {
      const previous = aToken(userId, { name: 'ci', allowedAddresses: ['10.0.0.0/8'] });
      await store.tokens.insert(previous);
      const replacement = aToken(userId, { name: 'ci', allowedAddresses: ['10.0.0.0/8'], rotatedFrom: previous.id });
      const rotated = { ...previous, rotatedTo: replacement.id, rotationEndsAt: 90_000 };
      expect(await store.tokens.rotate(previous.id, replacement, 90_000)).to.deep.equal({
        rotated: true,
        previous: rotated,
      });
      expect(await store.tokens.findById(previous.id)).to.deep.equal(rotated);
      expect(await store.tokens.findBySecretHash(replacement.secretHash)).to.deep.equal(replacement);
      const again = aToken(userId, { rotatedFrom: previous.id });
      expect(await store.tokens.rotate(previous.id, again, 95_000)).to.deep.equal({
        rotated: false,
        refused: 'alreadyRotated',
      });
      expect(await store.tokens.findById(again.id)).to.equal(undefined);
      expect(await store.tokens.rotate(UNKNOWN, aToken(userId), 1)).to.deep.equal({
        rotated: false,
        refused: 'notFound',
      });
    });

    it('refuses a rotation that would leave the owner more than maxLiveTokens live tokens, the replaced one not counted, storing nothing', async () => {
      const [first, second] = [aToken(userId, { createdAt: 1_000 }), aToken(userId, { createdAt: 1_000 })];
      await store.tokens.insert(first);
      await store.tokens.insert(second);
      const replacement = aToken(userId, { createdAt: 2_000, rotatedFrom: first.id });
      expect(await store.tokens.rotate(first.id, replacement, 10_000, 2)).to.deep.include({ rotated: true });
      // first is ending but live until 10,000: replacing second now would make three.
      const over = aToken(userId, { createdAt: 3_000, rotatedFrom: second.id });
      expect(await store.tokens.rotate(second.id, over, 10_000, 2)).to.deep.equal({
        rotated: false,
        refused: 'liveTokenLimit',
      });
      expect(await store.tokens.findById(over.id)).to.equal(undefined);
      expect((await store.tokens.findById(second.id))!.rotatedTo).to.equal(null);
      // Past first's end it no longer counts, for a rotation or an insert.
      const later = aToken(userId, { createdAt: 10_000, rotatedFrom: second.id });
      expect(await store.tokens.rotate(second.id, later, 20_000, 2)).to.deep.include({ rotated: true });
      expect(await store.tokens.insert(aToken(userId, { createdAt: 20_000 }), 3)).to.deep.equal({ inserted: true });
      expect(await store.tokens.insert(aToken(userId, { createdAt: 20_000 }), 3)).to.deep.equal({
        inserted: false,
        refused: 'liveTokenLimit',
      });
    });

    it('lets exactly one of concurrent rotations of one token pass', async () => {
      for (let round = 0; round < 10; round += 1) {
        const previous = aToken(userId);
        await store.tokens.insert(previous);
        const replacements = Array.from({ length: 4 }, () => aToken(userId, { rotatedFrom: previous.id }));
        const outcomes = await Promise.all(replacements.map((next) => store.tokens.rotate(previous.id, next, 5_000)));
        expect(outcomes.filter((outcome) => outcome.rotated)).to.have.length(1);
        const stored = await Promise.all(replacements.map((next) => store.tokens.findById(next.id)));
        expect(stored.filter((found) => found !== undefined)).to.have.length(1);
        expect((await store.tokens.findById(previous.id))!.rotatedTo).to.equal(stored.find(Boolean)!.id);
      }
    });

    it('a new password hash ends the user’s password sessions and what hangs on them, and nothing else', async () => {
      const other = aUser();
      await store.users.insert(other);
      const session = aToken(userId, { origin: 'password' });
      const minted = aToken(userId, { issuedBy: userId, issuedThrough: session.id });
      const kept = [aToken(userId, { origin: 'token' }), aToken(userId, { origin: 'cli' })];
      const othersSession = aToken(other.id, { origin: 'password' });
      for (const token of [session, minted, ...kept, othersSession]) await store.tokens.insert(token);
      await store.users.update(userId, { displayName: 'renamed', blocked: false }, 2_000);
      expect(await store.tokens.findById(session.id)).to.deep.equal(session);
      await store.users.update(userId, { passwordHash: 'another hash' }, 3_000);
      expect(await store.tokens.findById(session.id)).to.equal(undefined);
      expect(await store.tokens.findById(minted.id)).to.equal(undefined);
      expect(await store.tokens.listByUser(userId)).to.have.deep.members(kept);
      expect(await store.tokens.findById(othersSession.id)).to.deep.equal(othersSession);
    });
  });
}
