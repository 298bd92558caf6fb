import { expect } from 'chai';
import type { AuditAction, AuditEntry } from '../../src/domain/audit.js';
import { aToken, aUser } from '../support/mothers.js';
import { storeAdapters, type StoreUnderTest } from './store-adapters.js';

const T0 = Date.UTC(2026, 10, 1);
const ALICE = { uid: 'alice-uid', userId: '00000000-0000-4000-8000-0000000000a1' };
const BOB = { uid: 'bob-uid', userId: '00000000-0000-4000-8000-0000000000b0' };

function anEntry(fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at: T0,
    action: 'user.update',
    actor: { uid: ALICE.uid, username: 'alice', tokenId: '00000000-0000-4000-8000-00000000700a', via: 'http' },
    target: { type: 'user', id: BOB.uid, label: 'bob' },
    changes: {
      blocked: { old: false, new: true },
      permissions: { old: ['A::b'], new: [] },
      password: { changed: true },
    },
    address: '192.0.2.7',
    requestId: 'req-1',
    outcome: 'success',
    concerns: BOB.userId,
    ...fields,
  };
}

const withoutId = ({ id: _id, ...entry }: AuditEntry & { id: string }): AuditEntry => entry;

for (const adapter of storeAdapters) {
  describe(`contract: AuditTrail (${adapter.name})`, () => {
    let store: StoreUnderTest;
    beforeEach(async () => {
      store = await adapter.open();
    });
    afterEach(async () => store.close());

    it('gives back a recorded entry field for field, with an id of its own', async () => {
      const entry = anEntry();
      await store.trail.record(entry);
      const [read] = await store.trail.list({ limit: 10 });
      expect(read!.id).to.match(/^[1-9][0-9]*$/);
      expect(withoutId(read!)).to.deep.equal(entry);
    });

    it('keeps nulls as they are: the operator, a login on no account', async () => {
      const entry = anEntry({
        action: 'login.password',
        actor: { uid: null, username: null, tokenId: null, via: 'cli' },
        target: { type: 'user', id: null, label: null },
        changes: {},
        address: null,
        requestId: null,
        outcome: 'failure',
        concerns: null,
      });
      await store.trail.record(entry);
      expect((await store.trail.list({ limit: 1 })).map(withoutId)).to.deep.equal([entry]);
    });

    it('answers newest first, in the order written, a page at a time before a given entry', async () => {
      const actions: AuditAction[] = ['user.create', 'token.create', 'token.update', 'token.delete', 'user.delete'];
      // Written out of time order: the order written is the trail's.
      for (const [index, action] of actions.entries()) await store.trail.record(anEntry({ action, at: T0 - index }));
      const firstPage = await store.trail.list({ limit: 2 });
      expect(firstPage.map((entry) => entry.action)).to.deep.equal(['user.delete', 'token.delete']);
      const secondPage = await store.trail.list({ limit: 2, before: firstPage[1]!.id });
      expect(secondPage.map((entry) => entry.action)).to.deep.equal(['token.update', 'token.create']);
      const lastPage = await store.trail.list({ limit: 2, before: secondPage[1]!.id });
      expect(lastPage.map((entry) => entry.action)).to.deep.equal(['user.create']);
      expect(Number(firstPage[0]!.id)).to.be.greaterThan(Number(lastPage[0]!.id));
    });

    it('filters by actor, target, action and time, every filter given holding', async () => {
      await store.trail.record(anEntry({ at: T0, action: 'user.update' }));
      await store.trail.record(
        anEntry({ at: T0 + 1000, action: 'token.create', target: { type: 'token', id: 'tok-1', label: 'ci' } }),
      );
      await store.trail.record(
        anEntry({
          at: T0 + 2000,
          action: 'user.update',
          actor: { uid: BOB.uid, username: 'bob', tokenId: null, via: 'http' },
          target: { type: 'user', id: ALICE.uid, label: 'alice' },
          concerns: ALICE.userId,
        }),
      );
      const at = async (query: Parameters<StoreUnderTest['trail']['list']>[0]) =>
        (await store.trail.list(query)).map((entry) => entry.at - T0);
      expect(await at({ limit: 10, actor: ALICE.uid })).to.deep.equal([1000, 0]);
      expect(await at({ limit: 10, actor: BOB.uid })).to.deep.equal([2000]);
      expect(await at({ limit: 10, target: 'tok-1' })).to.deep.equal([1000]);
      expect(await at({ limit: 10, target: BOB.uid, action: 'user.update' })).to.deep.equal([0]);
      expect(await at({ limit: 10, action: 'user.update' })).to.deep.equal([2000, 0]);
      expect(await at({ limit: 10, from: T0 + 1000 })).to.deep.equal([2000, 1000]);
      expect(await at({ limit: 10, to: T0 + 1000 })).to.deep.equal([0]);
      expect(await at({ limit: 10, from: T0 + 1, to: T0 + 2000 })).to.deep.equal([1000]);
      expect(await at({ limit: 10, actor: 'nobody' })).to.deep.equal([]);
    });

    it('reads a user’s own: what they did and what concerns them, nobody else’s', async () => {
      await store.trail.record(anEntry({ at: T0 })); // Alice on Bob
      await store.trail.record(
        anEntry({
          at: T0 + 1,
          actor: { uid: null, username: null, tokenId: null, via: 'cli' },
          concerns: ALICE.userId,
        }),
      );
      await store.trail.record(
        anEntry({ at: T0 + 2, actor: { uid: 'carol', username: 'carol', tokenId: null, via: 'http' }, concerns: 'x' }),
      );
      const of = async (who: typeof ALICE) =>
        (await store.trail.list({ limit: 10, ownedBy: who })).map((entry) => entry.at - T0);
      expect(await of(ALICE)).to.deep.equal([1, 0]);
      expect(await of(BOB)).to.deep.equal([0]);
      expect(await store.trail.list({ limit: 10, ownedBy: BOB, action: 'token.create' })).to.deep.equal([]);
    });

    it('removes at most the given number of entries older than an instant, oldest first, and answers how many', async () => {
      for (let index = 0; index < 5; index++) await store.trail.record(anEntry({ at: T0 + index }));
      expect(await store.trail.removeOlderThan(T0 + 3, 2)).to.equal(2);
      expect((await store.trail.list({ limit: 10 })).map((entry) => entry.at - T0)).to.deep.equal([4, 3, 2]);
      expect(await store.trail.removeOlderThan(T0 + 3, 2)).to.equal(1);
      expect(await store.trail.removeOlderThan(T0 + 3, 2)).to.equal(0);
      expect((await store.trail.list({ limit: 10 })).map((entry) => entry.at - T0)).to.deep.equal([4, 3]);
    });
  });

  describe(`contract: the stores write a change’s entry with it (${adapter.name})`, () => {
    let store: StoreUnderTest;
    beforeEach(async () => {
      store = await adapter.open();
    });
    afterEach(async () => store.close());

    const actions = async () => (await store.trail.list({ limit: 100 })).map((entry) => entry.action).reverse();

    it('writes the entry of each change made, and none for a change refused or not made', async () => {
      const user = aUser();
      await store.users.insert(user, anEntry({ action: 'user.create' }));
      await store.users.insert(aUser({ username: user.username }), anEntry({ action: 'user.create', at: T0 + 1 }));
      await store.users.update(user.id, { displayName: 'Ada' }, T0 + 2, anEntry({ action: 'user.update' }));
      await store.users.update(
        '00000000-0000-4000-8000-000000000000',
        { displayName: 'x' },
        T0 + 3,
        anEntry({ action: 'user.update', at: T0 + 3 }),
      );
      const token = aToken(user.id);
      await store.tokens.insert(token, undefined, anEntry({ action: 'token.create' }));
      await store.tokens.insert(token, undefined, anEntry({ action: 'token.create', at: T0 + 4 }));
      await store.tokens.update(token.id, { disabled: true }, anEntry({ action: 'token.update' }));
      await store.tokens.update('00000000-0000-4000-8000-000000000000', { disabled: true }, anEntry({ at: T0 + 5 }));
      const next = aToken(user.id, { rotatedFrom: token.id });
      await store.tokens.rotate(token.id, next, T0 + 10, undefined, anEntry({ action: 'token.rotate' }));
      await store.tokens.rotate(
        token.id,
        aToken(user.id),
        T0 + 10,
        undefined,
        anEntry({ action: 'token.rotate', at: T0 + 6 }),
      );
      await store.tokens.delete(next.id, anEntry({ action: 'token.delete' }));
      await store.tokens.delete(next.id, anEntry({ action: 'token.delete', at: T0 + 7 }));
      await store.users.delete(user.id, anEntry({ action: 'user.delete' }));
      await store.users.delete(user.id, anEntry({ action: 'user.delete', at: T0 + 8 }));
      expect(await actions()).to.deep.equal([
        'user.create',
        'user.update',
        'token.create',
        'token.update',
        'token.rotate',
        'token.delete',
        'user.delete',
      ]);
      expect((await store.trail.list({ limit: 100 })).every((entry) => entry.at === T0)).to.equal(true);
    });

    it('writes no entry for a token insert refused by the live-token limit, nor for an update that changes nothing', async () => {
      const user = aUser();
      await store.users.insert(user);
      await store.tokens.insert(aToken(user.id), 1, anEntry({ action: 'token.create' }));
      await store.tokens.insert(aToken(user.id), 1, anEntry({ action: 'token.create', at: T0 + 1 }));
      await store.tokens.update(aToken(user.id).id, {}, anEntry({ action: 'token.update' }));
      expect(await actions()).to.deep.equal(['token.create']);
    });
  });
}
