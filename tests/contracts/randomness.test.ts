import { expect } from 'chai';
import type { Randomness } from '../../src/domain/ports.js';
import { systemRandomness } from '../../src/platform/randomness/system-randomness.js';
import { SeededRandomness } from '../support/seeded-randomness.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * What the domain takes from Randomness: as many bytes as asked, never the same draw twice, and
 * version 4 UUIDs. The operating system's, and the tests' seeded one (the same draws for the same
 * seed, which the system's by design does not give).
 */
const sources: { name: string; make: () => Randomness }[] = [
  { name: 'system', make: () => systemRandomness },
  { name: 'seeded', make: () => new SeededRandomness('contract') },
];

for (const { name, make } of sources) {
  describe(`contract: Randomness (${name})`, () => {
    it('gives as many bytes as asked, none included', () => {
      const randomness = make();
      for (const count of [0, 1, 12, 31, 32, 33, 1000]) expect(randomness.bytes(count)).to.have.length(count);
    });

    it('never gives the same draw twice, and draws that use every byte value', () => {
      const randomness = make();
      const draws = new Set(Array.from({ length: 2000 }, () => randomness.bytes(16).toString('hex')));
      expect(draws.size).to.equal(2000);
      const seen = new Set(randomness.bytes(8192));
      expect(seen.size).to.equal(256);
    });

    it('gives a draw the caller may keep: a later draw does not change it', () => {
      const randomness = make();
      const first = randomness.bytes(16);
      const kept = Buffer.from(first);
      randomness.bytes(64);
      expect(first.equals(kept)).to.equal(true);
    });

    it('makes version 4 UUIDs, each one new', () => {
      const randomness = make();
      const uuids = Array.from({ length: 1000 }, () => randomness.uuid());
      for (const uuid of uuids) expect(uuid).to.match(UUID_V4);
      expect(new Set(uuids).size).to.equal(1000);
    });
  });
}

describe('Randomness (seeded)', () => {
  it('gives the same draws for the same seed and others for another', () => {
    const draws = (seed: string) => {
      const randomness = new SeededRandomness(seed);
      return [randomness.bytes(40).toString('hex'), randomness.uuid()];
    };
    expect(draws('a')).to.deep.equal(draws('a'));
    expect(draws('a')).to.not.deep.equal(draws('b'));
  });
});
