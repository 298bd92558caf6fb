import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryLexicon } from '../../src/families/dictionary/adapters/memory-lexicon.js';
import { RememberedAnswers } from '../../src/families/dictionary/adapters/remembered-answers.js';
import { FindSynonyms } from '../../src/families/dictionary/domain/dictionary-queries.js';
import type { PartOfSpeech } from '../../src/families/dictionary/domain/sense.js';
import { SEEDED_IRREGULAR_FORMS, SEEDED_LEMMAS } from '../support/lexicon-seed.js';

describe('adapters: RememberedAnswers (the dictionary’s answers, kept whole)', () => {
  /** FindSynonyms over the seeded lexicon, noting each lemma whose senses it reads. */
  function countedSynonyms(): { reads: string[]; query: FindSynonyms; plain: FindSynonyms } {
    const reads: string[] = [];
    class CountingLexicon extends MemoryLexicon {
      override senses(lemma: string, partOfSpeech: PartOfSpeech) {
        reads.push(lemma);
        return super.senses(lemma, partOfSpeech);
      }
    }
    return {
      reads,
      query: new FindSynonyms(new CountingLexicon(SEEDED_LEMMAS, SEEDED_IRREGULAR_FORMS)),
      plain: new FindSynonyms(new MemoryLexicon(SEEDED_LEMMAS, SEEDED_IRREGULAR_FORMS)),
    };
  }

  it('answers a question asked again as the first time, keeping it from its second ask; another filter is another question', async () => {
    const { reads, query, plain } = countedSynonyms();
    const remembered = new RememberedAnswers(query, 10);
    const first = await remembered.execute('hot');
    expect(E.isRight(first)).to.equal(true);
    expect(first).to.deep.equal(await plain.execute('hot'));
    const readsOnce = reads.length;
    expect(readsOnce).to.be.above(0);
    expect(await remembered.execute('hot')).to.deep.equal(first);
    expect(reads.length, 'asked a second time, it is read again, and kept').to.equal(2 * readsOnce);
    expect(await remembered.execute('hot')).to.deep.equal(first);
    expect(reads.length, 'kept from the second time on').to.equal(2 * readsOnce);

    const limited = await remembered.execute('hot', { limit: 1 });
    expect(limited).to.deep.equal(await plain.execute('hot', { limit: 1 }));
    expect(reads.length, 'a limit is another question').to.be.above(2 * readsOnce);
  });

  it('keeps a miss with its suggestions, and forgets the least recently asked beyond its capacity', async () => {
    const { reads, query, plain } = countedSynonyms();
    const remembered = new RememberedAnswers(query, 2);
    const askTwice = async (word: string) => {
      await remembered.execute(word);
      return remembered.execute(word);
    };
    const miss = await askTwice('hott');
    expect(miss).to.deep.equal(await plain.execute('hott'));
    expect(E.isLeft(miss) && miss.left._tag).to.equal('InformationNotFound');

    await askTwice('hot');
    await askTwice('cold');
    const beforeAgain = reads.length;
    await remembered.execute('hot');
    expect(reads.length, '"hot" is still kept').to.equal(beforeAgain);
    await askTwice('hott');
    const afterHott = reads.length;
    await remembered.execute('cold');
    expect(reads.length, '"cold" was forgotten when "hott" came back').to.be.above(afterHott);
  });

  it('keeps no answer of a question asked once, so that questions asked once never push out one asked often', async () => {
    const { reads, query } = countedSynonyms();
    const remembered = new RememberedAnswers(query, 2);
    await remembered.execute('hot');
    await remembered.execute('hot');
    for (const word of ['cold', 'goose', 'torrid', 'ice cream', 'hott', 'colde']) await remembered.execute(word);
    const before = reads.length;
    await remembered.execute('hot');
    expect(reads.length, '"hot" is still kept after six words asked once').to.equal(before);
  });
});
