import { expect } from 'chai';
import { MemoryPasswords } from '../../src/families/users-and-tokens/adapters/memory/memory-passwords.js';
import { ScryptPasswords } from '../../src/families/users-and-tokens/adapters/scrypt-passwords.js';
import type { Passwords } from '../../src/families/users-and-tokens/domain/users/ports.js';

const PASSWORD = 'correct horse battery';

/** Every adapter of the Passwords port; each `make` gives a fresh instance, as a restarted process would have. */
const adapters: { name: string; make: () => Passwords }[] = [
  { name: 'memory', make: () => new MemoryPasswords() },
  // A test's cost: the contract is about what a hash promises, not how long it takes.
  { name: 'scrypt', make: () => new ScryptPasswords(10) },
];

for (const { name, make } of adapters) {
  describe(`contract: Passwords (${name})`, () => {
    it('verifies a hash with its password only, and salts each hash', async () => {
      const passwords = make();
      const [a, b] = await Promise.all([passwords.hash(PASSWORD), passwords.hash(PASSWORD)]);
      expect(a).not.to.equal(b);
      for (const hash of [a, b]) {
        expect(await passwords.verify(PASSWORD, hash)).to.equal(true);
        expect(await passwords.verify('correct horse batterz', hash)).to.equal(false);
        expect(await passwords.verify('', hash)).to.equal(false);
        expect(await passwords.verify(`${PASSWORD} `, hash)).to.equal(false);
      }
    });

    it('verifies a hash another instance made: what is stored outlives the process', async () => {
      const hash = await make().hash(PASSWORD);
      expect(await make().verify(PASSWORD, hash)).to.equal(true);
    });

    it('takes a password in any Unicode form NFKC makes the same', async () => {
      const passwords = make();
      const hash = await passwords.hash('caf\u00e9 au lait \ufb01ne');
      expect(await passwords.verify('cafe\u0301 au lait fine', hash)).to.equal(true);
      expect(await passwords.verify('cafe au lait fine', hash)).to.equal(false);
    });

    it('refuses, without throwing, a stored value it did not make', async () => {
      const passwords = make();
      const others = await Promise.all(
        adapters.filter((other) => other.name !== name).map((other) => other.make().hash(PASSWORD)),
      );
      for (const stored of ['', 'junk', '$$$$$', 'scrypt$', 'memory$', ...others])
        expect(await passwords.verify(PASSWORD, stored), stored).to.equal(false);
    });

    it('offers a hash no password matches', async () => {
      const passwords = make();
      const nobody = await passwords.hashNobodyKnows();
      expect(nobody).to.be.a('string').with.length.greaterThan(0);
      for (const guess of ['', PASSWORD, 'nobody', nobody])
        expect(await passwords.verify(guess, nobody), guess).to.equal(false);
    });
  });
}

describe('adapter: ScryptPasswords', () => {
  it('hashes with scrypt and a per-user salt, and verifies only the right password', async () => {
    const passwords = new ScryptPasswords();
    const [a, b] = await Promise.all([passwords.hash(PASSWORD), passwords.hash(PASSWORD)]);
    expect(a).to.match(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(a).not.to.equal(b);
    expect(await passwords.verify(PASSWORD, a)).to.equal(true);
    expect(await passwords.verify('correct horse batterz', a)).to.equal(false);
  });

  it('hashes at the cost it was given and verifies a hash of any cost, since the parameters travel with it', async () => {
    const cheap = new ScryptPasswords(10);
    const hash = await cheap.hash(PASSWORD);
    expect(hash).to.match(/^scrypt\$1024\$8\$1\$/);
    expect(await new ScryptPasswords().verify(PASSWORD, hash)).to.equal(true);
    expect((await cheap.hashNobodyKnows()).split('$').slice(0, 4)).to.deep.equal(['scrypt', '1024', '8', '1']);
    for (const cost of [3, 21, 12.5]) expect(() => new ScryptPasswords(cost), String(cost)).to.throw(RangeError);
  });
});
