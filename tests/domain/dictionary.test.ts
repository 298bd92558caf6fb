import { expect } from 'chai';
import { MemoryLexicon } from '../../src/families/dictionary/adapters/memory-lexicon.js';
import { DefineWord, FindAntonyms, FindSynonyms } from '../../src/families/dictionary/domain/dictionary-queries.js';
import {
  detach,
  normaliseWord,
  spellingVariants,
  WORD_PATTERN,
} from '../../src/families/dictionary/domain/word-forms.js';
import { expectLeftTag, expectRight } from '../support/either.js';

const sense = (
  definition: string,
  words: string[],
  extra: { antonyms?: string[]; indirectAntonyms?: string[] } = {},
) => ({ definition, examples: [], words, ...extra });

/** A small world: "walk" regular, "geese" and "better" irregular, satellites without antonyms of their own. */
const lexicon = new MemoryLexicon(
  [
    {
      lemma: 'goose',
      partOfSpeech: 'noun',
      senses: [sense('a bird', ['goose']), sense('a fool', ['fathead', 'goose', 'Goose'])],
    },
    { lemma: 'cat', partOfSpeech: 'noun', senses: [sense('a feline', ['cat', 'true cat'])] },
    { lemma: 'walk', partOfSpeech: 'verb', senses: [sense('go on foot', ['walk'], { antonyms: ['ride'] })] },
    { lemma: 'walk', partOfSpeech: 'noun', senses: [sense('a stroll', ['walk', 'walking'])] },
    { lemma: 'walking', partOfSpeech: 'noun', senses: [sense('the act of walking', ['walking', 'walk'])] },
    {
      lemma: 'good',
      partOfSpeech: 'adjective',
      senses: [
        sense('having desirable qualities', ['good'], { antonyms: ['bad'] }),
        sense('ample', ['full', 'good'], { indirectAntonyms: ['meager'] }),
      ],
    },
    { lemma: 'better', partOfSpeech: 'adjective', senses: [sense('superior', ['better'], { antonyms: ['worse'] })] },
    {
      lemma: 'torrid',
      partOfSpeech: 'adjective',
      senses: [sense('very hot', ['torrid', 'sultry'], { indirectAntonyms: ['cold'] })],
    },
    { lemma: 'ice cream', partOfSpeech: 'noun', senses: [sense('frozen dessert', ['ice cream', 'icecream'])] },
    {
      lemma: 'good-looking',
      partOfSpeech: 'adjective',
      senses: [sense('pleasing in appearance', ['good-looking', 'handsome'])],
    },
  ],
  [
    { form: 'geese', partOfSpeech: 'noun', baseForms: ['goose'] },
    { form: 'better', partOfSpeech: 'adjective', baseForms: ['good', 'well'] },
  ],
);
const define = new DefineWord(lexicon);
const synonyms = new FindSynonyms(lexicon);
const antonyms = new FindAntonyms(lexicon);

describe('domain: dictionary', () => {
  it('resolves an irregular form through the exception list', async () => {
    const answer = expectRight(await define.execute('geese'));
    expect(answer.word).to.equal('geese');
    expect(answer.lemmas).to.deep.equal(['goose']);
    expect(answer.definitions.map((d) => d.definition)).to.deep.equal(['a bird', 'a fool']);
    expect(answer.definitions[0]).to.deep.equal({
      lemma: 'goose',
      partOfSpeech: 'noun',
      definition: 'a bird',
      examples: [],
    });
  });

  it('keeps a form that is a lemma itself beside the base forms it has', async () => {
    expect(expectRight(await define.execute('better')).lemmas).to.deep.equal(['better', 'good']);
    expect(expectRight(await define.execute('walking')).lemmas).to.deep.equal(['walking', 'walk']);
  });

  it('detaches regular endings', async () => {
    expect(expectRight(await define.execute('cats')).lemmas).to.deep.equal(['cat']);
    expect(expectRight(await define.execute('walked')).lemmas).to.deep.equal(['walk']);
    expect(expectRight(await define.execute('ice creams')).lemmas).to.deep.equal(['ice cream']);
  });

  it('ignores case, surrounding spaces and repeated inner spaces', async () => {
    const answer = expectRight(await define.execute('  Ice   CREAM '));
    expect(answer.word).to.equal('ice cream');
    expect(answer.lemmas).to.deep.equal(['ice cream']);
  });

  it('tries other spellings of a word not found as written', async () => {
    expect(expectRight(await define.execute('good looking')).lemmas).to.deep.equal(['good-looking']);
    expect(expectRight(await define.execute('ice-cream')).lemmas).to.deep.equal(['ice cream']);
  });

  it('gives the other words of every sense once each, leaving out the word and its lemmas', async () => {
    expect(expectRight(await synonyms.execute('geese')).synonyms).to.deep.equal(['fathead']);
    expect(expectRight(await synonyms.execute('walking')).synonyms).to.deep.equal([]);
    expect(expectRight(await synonyms.execute('torrid'))).to.deep.equal({
      word: 'torrid',
      lemmas: ['torrid'],
      synonyms: ['sultry'],
    });
  });

  it('gives direct antonyms, and a satellite’s through its head only when there are none', async () => {
    expect(expectRight(await antonyms.execute('good')).antonyms).to.deep.equal(['bad']);
    expect(expectRight(await antonyms.execute('better')).antonyms).to.deep.equal(['worse', 'bad']);
    expect(expectRight(await antonyms.execute('torrid')).antonyms).to.deep.equal(['cold']);
    expect(expectRight(await antonyms.execute('goose')).antonyms).to.deep.equal([]);
  });

  it('answers InformationNotFound for a word it does not have', async () => {
    for (const word of ['xyzzy', 'geeses', 'ice']) expectLeftTag(await define.execute(word), 'InformationNotFound');
    expectLeftTag(await synonyms.execute('xyzzy'), 'InformationNotFound');
    expectLeftTag(await antonyms.execute('xyzzy'), 'InformationNotFound');
  });

  it('answers InvalidInput for what cannot be a word', async () => {
    for (const word of ['', '   ', '12#$', '123', 'a'.repeat(65), 'ice_cream', 'tab\there', 'x\u0000']) {
      expectLeftTag(await define.execute(word), 'InvalidInput');
    }
  });
});

describe('domain: word forms', () => {
  it('accepts letters of any script with spaces, hyphens, apostrophes, periods and digits among them', () => {
    for (const word of [
      'goose',
      'Ice cream',
      'jack-o’-lantern',
      "o'clock",
      'a.m.',
      '4-wheel drive',
      'café',
      'Straße',
      'ёж',
      'a'.repeat(64),
    ]) {
      expect(WORD_PATTERN.test(word), word).to.equal(true);
    }
    for (const word of ['', ' ', '12#$', '42', '...', 'a'.repeat(65), 'a/b', 'a_b', 'a\nb'])
      expect(WORD_PATTERN.test(word), word).to.equal(false);
  });

  it('normalises to lower case, single spaces and straight apostrophes', () => {
    expect(normaliseWord('  Jack-O’-Lantern  ')).to.equal("jack-o'-lantern");
    expect(normaliseWord('ICE    cream')).to.equal('ice cream');
  });

  it('spells a word the other ways WordNet writes words', () => {
    expect(spellingVariants('good looking')).to.deep.equal(['good-looking', 'goodlooking']);
    expect(spellingVariants('well-being')).to.deep.equal(['well being', 'wellbeing']);
    expect(spellingVariants('a.m.')).to.deep.equal(['am']);
    expect(spellingVariants('goose')).to.deep.equal([]);
  });

  it("applies WordNet's detachment rules per part of speech", () => {
    expect(detach('boxes', 'noun')).to.deep.equal(['boxe', 'box']);
    expect(detach('women', 'noun')).to.deep.equal(['woman']);
    expect(detach('flies', 'verb')).to.deep.equal(['flie', 'fly', 'fli']);
    expect(detach('hoping', 'verb')).to.deep.equal(['hope', 'hop']);
    expect(detach('larger', 'adjective')).to.deep.equal(['larg', 'large']);
    expect(detach('quickly', 'adverb')).to.deep.equal([]);
    expect(detach('s', 'noun')).to.deep.equal([]);
  });
});
