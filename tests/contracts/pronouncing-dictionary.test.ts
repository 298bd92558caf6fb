import { expect } from 'chai';
import { CmuPronunciations } from '../../src/families/dictionary/adapters/cmu-pronunciations.js';
import { MemoryPronunciations } from '../../src/families/dictionary/adapters/memory-pronunciations.js';
import type { PronouncingDictionary } from '../../src/families/dictionary/domain/ports.js';

/** The CMU Pronouncing Dictionary's entries for the words the suite asks, as its file writes them. */
const SEEDED = {
  record: ['R AH0 K AO1 R D', 'R EH1 K ER0 D', 'R IH0 K AO1 R D'],
  geese: ['G IY1 S'],
  read: ['R EH1 D', 'R IY1 D'],
  "'bout": ['B AW1 T'],
  zywicki: ['Z IH0 W IH1 K IY0'],
};

/** Both adapters hold the same words: the seeded few, and the CMU dictionary's 134,000. */
const adapters: { name: string; open: () => PronouncingDictionary }[] = [
  { name: 'memory', open: () => new MemoryPronunciations(SEEDED) },
  { name: 'CMU Pronouncing Dictionary', open: () => new CmuPronunciations() },
];

for (const adapter of adapters) {
  describe(`contract: PronouncingDictionary (${adapter.name})`, () => {
    let dictionary: PronouncingDictionary;
    before(() => {
      dictionary = adapter.open();
    });

    it("gives a word's pronunciations in ARPAbet, in the dictionary's order, the usual one first", async () => {
      expect(await dictionary.pronunciationsOf('record')).to.deep.equal(SEEDED.record);
      expect(await dictionary.pronunciationsOf('read')).to.deep.equal(SEEDED.read);
      expect(await dictionary.pronunciationsOf('geese')).to.deep.equal(SEEDED.geese);
    });

    it('finds the first and the last words of the dictionary, an apostrophe among the letters', async () => {
      expect(await dictionary.pronunciationsOf("'bout")).to.deep.equal(SEEDED["'bout"]);
      expect(await dictionary.pronunciationsOf('zywicki')).to.deep.equal(SEEDED.zywicki);
    });

    it('gives none for a word it does not know, for the empty word and for letters beyond ASCII', async () => {
      for (const word of ['xyzzyq', '', 'zzzzzz', 'récord', 'géese', '東京', 'record(2)'])
        expect(await dictionary.pronunciationsOf(word), word).to.deep.equal([]);
    });
  });
}
