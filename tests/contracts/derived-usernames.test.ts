import { expect } from 'chai';
import { MemoryPasswords } from '../../src/families/users-and-tokens/adapters/memory/memory-passwords.js';
import { SystemClock } from '../../src/platform/clock/system-clock.js';
import { systemRandomness } from '../../src/platform/randomness/system-randomness.js';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { CreateUser, nextUsernameNumber } from '../../src/families/users-and-tokens/domain/users/create-user.js';
import { storeAdapters, type StoreUnderTest } from './store-adapters.js';
import { expectRight } from '../support/either.js';
import { SERVICE_PERMISSIONS } from '../support/permissions.js';

describe('domain: the next number of a derived username', () => {
  it('follows the highest number taken, ignoring names that only begin the same', () => {
    expect(nextUsernameNumber('con.current', [])).to.equal(2);
    expect(nextUsernameNumber('con.current', ['con.current'])).to.equal(2);
    expect(nextUsernameNumber('con.current', ['con.current', 'con.current2', 'con.current51'])).to.equal(52);
    expect(
      nextUsernameNumber('con.current', ['con.current', 'con.currently', 'con.current-k3x9q', 'con.current007']),
    ).to.equal(2);
  });
});

for (const adapter of storeAdapters) {
  describe(`domain: derived usernames never fail, with the real ${adapter.name} store`, () => {
    let store: StoreUnderTest;
    let createUser: CreateUser;
    beforeEach(async () => {
      store = await adapter.open();
      createUser = new CreateUser(
        store.users,
        new SystemClock(),
        systemRandomness,
        new MemoryPasswords(),
        SERVICE_PERMISSIONS,
      );
    });
    afterEach(async () => store.close());

    const conCurrent = () => createUser.execute({ actor: OPERATOR, firstName: 'Con', lastName: 'Current' });

    it('numbers one name given one after another: con.current, con.current2, … con.current60', async () => {
      const usernames: string[] = [];
      for (let i = 0; i < 60; i++) usernames.push(expectRight(await conCurrent()).username);
      expect(usernames).to.deep.equal(['con.current', ...Array.from({ length: 59 }, (_, i) => `con.current${i + 2}`)]);
    });

    it('creates 200 users of one name at once: all succeed, with distinct usernames of at most 32 characters', async () => {
      const created = await Promise.all(Array.from({ length: 200 }, conCurrent));
      const usernames = created.map((outcome) => expectRight(outcome).username);
      expect(new Set(usernames).size).to.equal(200);
      expect(usernames).to.include('con.current');
      for (const username of usernames) expect(username).to.match(/^con\.current(?:[0-9]+|-[a-z0-9]{5})?$/);
      expect(await store.users.listPage({ limit: 1000 })).to.have.length(200);
    });

    it('still refuses a chosen username that is taken, as a conflict', async () => {
      expectRight(await conCurrent());
      const chosen = await createUser.execute({
        actor: OPERATOR,
        username: 'con.current',
        firstName: 'Con',
        lastName: 'Current',
      });
      expect(chosen).to.deep.equal({
        _tag: 'Left',
        left: { _tag: 'Conflict', details: 'A user with this username already exists' },
      });
    });
  });
}
