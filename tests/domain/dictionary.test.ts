import { expect } from 'chai';
import { MemoryPronunciations } from '../../src/families/dictionary/adapters/memory-pronunciations.js';
import { MemoryLexicon } from '../../src/families/dictionary/adapters/memory-lexicon.js';
import { ipaOf, primaryStressSyllable } from '../../src/families/dictionary/domain/arpabet.js';
import { DefineWord, FindAntonyms, FindSynonyms } from '../../src/families/dictionary/domain/dictionary-queries.js';
import { distanceWithin } from '../../src/families/dictionary/domain/spelling-distance.js';
import {
  detach,
  normaliseWord,
  spellingVariants,
  WORD_PATTERN,
  wordsOf,
} from '../../src/families/dictionary/domain/word-forms.js';
import { expectLeftTag, expectRight } from '../support/either.js';

const sense = (
  definition: string,
  words: string[],
  extra: { antonyms?: string[]; indirectAntonyms?: string[]; tagCount?: number; examples?: string[] } = {},
) => ({ examples: [], definition, words, ...extra });

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
/** "run" as WordNet counts it: the noun's senses rarely used, the verb's first sense most. */
const ranked = new MemoryLexicon(
  [
    {
      lemma: 'run',
      partOfSpeech: 'noun',
      senses: [
        sense('a score in baseball', ['run', 'tally'], { tagCount: 1, examples: ['he made a run'] }),
        sense('a race', ['run', 'footrace'], { tagCount: 18, examples: ['the run was long', 'a footrace'] }),
        sense('a trip', ['run'], { examples: ['a run to the shop'] }),
      ],
    },
    {
      lemma: 'run',
      partOfSpeech: 'verb',
      senses: [
        sense('move fast on foot', ['run'], {
          tagCount: 106,
          examples: ['The children ran to the store', "Don't run"],
        }),
        sense('flee', ['run', 'scat', 'flee'], { tagCount: 38, antonyms: ['stay'], examples: ['they escaped'] }),
        sense('operate', ['run', 'operate'], { antonyms: ['halt'], examples: ['running the machines'] }),
      ],
    },
  ],
  [
    { form: 'ran', partOfSpeech: 'verb', baseForms: ['run'] },
    { form: 'running', partOfSpeech: 'verb', baseForms: ['run'] },
  ],
);
/** The CMU Pronouncing Dictionary's entries for the words whose pronunciations the tests read. */
const pronouncing = new MemoryPronunciations({
  record: ['R AH0 K AO1 R D', 'R EH1 K ER0 D', 'R IH0 K AO1 R D'],
  geese: ['G IY1 S'],
  ice: ['AY1 S'],
  cream: ['K R IY1 M'],
});
const define = new DefineWord(lexicon, pronouncing);
const defineRanked = new DefineWord(ranked, pronouncing);
const synonymsRanked = new FindSynonyms(ranked);
const antonymsRanked = new FindAntonyms(ranked);
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
      senses: [{ lemma: 'torrid', partOfSpeech: 'adjective', definition: 'very hot', synonyms: ['sultry'] }],
    });
  });

  it('gives direct antonyms, and a satellite’s through its head only when there are none', async () => {
    expect(expectRight(await antonyms.execute('good')).antonyms).to.deep.equal(['bad']);
    expect(expectRight(await antonyms.execute('better')).antonyms).to.deep.equal(['worse', 'bad']);
    expect(expectRight(await antonyms.execute('torrid')).antonyms).to.deep.equal(['cold']);
    expect(expectRight(await antonyms.execute('goose')).antonyms).to.deep.equal([]);
  });

  it('orders senses by their tag counts across parts of speech, the uncounted by their rank in each', async () => {
    const run = expectRight(await defineRanked.execute('run'));
    expect(run.definitions.map((d) => d.definition)).to.deep.equal([
      'move fast on foot',
      'flee',
      'a race',
      'a score in baseball',
      'a trip',
      'operate',
    ]);
  });

  it('keeps the senses of one part of speech and at most a limit of them', async () => {
    const verbs = expectRight(await defineRanked.execute('run', { partOfSpeech: 'verb', limit: 2 }));
    expect(verbs.definitions.map((d) => d.definition)).to.deep.equal(['move fast on foot', 'flee']);
    expect(expectRight(await synonymsRanked.execute('run', { limit: 1 })).synonyms).to.deep.equal(['scat', 'flee']);
    expect(expectRight(await antonymsRanked.execute('run', { partOfSpeech: 'noun' })).antonyms).to.deep.equal([]);
    const adverb = await defineRanked.execute('run', { partOfSpeech: 'adverb' });
    expectLeftTag(adverb, 'InformationNotFound');
    expect(adverb).to.deep.include({
      left: { _tag: 'InformationNotFound', details: 'The dictionary has no adverb "run"' },
    });
  });

  it('groups synonyms and antonyms by sense, most frequent first, beside one list of them all', async () => {
    const synonyms = expectRight(await synonymsRanked.execute('run'));
    expect(synonyms.senses).to.deep.equal([
      { lemma: 'run', partOfSpeech: 'verb', definition: 'flee', synonyms: ['scat', 'flee'] },
      { lemma: 'run', partOfSpeech: 'noun', definition: 'a race', synonyms: ['footrace'] },
      { lemma: 'run', partOfSpeech: 'noun', definition: 'a score in baseball', synonyms: ['tally'] },
      { lemma: 'run', partOfSpeech: 'verb', definition: 'operate', synonyms: ['operate'] },
    ]);
    expect(synonyms.synonyms).to.deep.equal(['scat', 'flee', 'footrace', 'tally', 'operate']);
    const antonyms = expectRight(await antonymsRanked.execute('ran'));
    expect(antonyms.senses.map((group) => [group.definition, group.antonyms])).to.deep.equal([
      ['flee', ['stay']],
      ['operate', ['halt']],
    ]);
    expect(antonyms.antonyms).to.deep.equal(['stay', 'halt']);
  });

  it('keeps only the examples that use the word or one of its forms', async () => {
    const run = expectRight(await defineRanked.execute('run'));
    const examplesOf = (definition: string) => run.definitions.find((d) => d.definition === definition)?.examples;
    expect(examplesOf('move fast on foot')).to.deep.equal(['The children ran to the store', "Don't run"]);
    expect(examplesOf('a race')).to.deep.equal(['the run was long']);
    expect(examplesOf('flee')).to.deep.equal([]);
    expect(examplesOf('operate')).to.deep.equal(['running the machines']);
  });

  it('says the word in IPA and ARPAbet, per part of speech where the stress tells them apart', async () => {
    const record = expectRight(
      await new DefineWord(
        new MemoryLexicon([
          { lemma: 'record', partOfSpeech: 'noun', senses: [sense('a document', ['record'])] },
          { lemma: 'record', partOfSpeech: 'verb', senses: [sense('make a record of', ['record'])] },
        ]),
        pronouncing,
      ).execute('record'),
    );
    expect(record.pronunciations).to.deep.equal([
      { ipa: 'ɹəˈkɔɹd', arpabet: 'R AH0 K AO1 R D', partsOfSpeech: ['verb'] },
      { ipa: 'ˈɹɛkɚd', arpabet: 'R EH1 K ER0 D', partsOfSpeech: ['noun'] },
      { ipa: 'ɹɪˈkɔɹd', arpabet: 'R IH0 K AO1 R D', partsOfSpeech: ['verb'] },
    ]);
    expect(expectRight(await define.execute('geese')).pronunciations).to.deep.equal([
      { ipa: 'ɡis', arpabet: 'G IY1 S', partsOfSpeech: [] },
    ]);
    expect(expectRight(await define.execute('ice cream')).pronunciations.map((p) => p.ipa)).to.deep.equal(['aɪs kɹim']);
  });

  it('answers a word it does not have with the lemmas spelled closest, the most used first', async () => {
    const miss = await define.execute('gooze');
    expect(miss).to.deep.include({
      left: {
        _tag: 'InformationNotFound',
        details: 'The dictionary has no entry for "gooze"',
        suggestions: ['goose', 'good'],
      },
    });
    expect(await defineRanked.execute('rn')).to.deep.include({
      left: { _tag: 'InformationNotFound', details: 'The dictionary has no entry for "rn"', suggestions: ['run'] },
    });
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

describe('domain: pronunciation and spelling', () => {
  it('writes ARPAbet in IPA, the stress mark before the syllable, none for one syllable', () => {
    expect(ipaOf('R AH1 N')).to.equal('ɹʌn');
    expect(ipaOf('R EH1 K ER0 D')).to.equal('ˈɹɛkɚd');
    expect(ipaOf('AH0 P L AY1')).to.equal('əˈplaɪ');
    expect(ipaOf('AH0 B S T R AH1 K T')).to.equal('əbˈstɹʌkt');
    expect(ipaOf('IH2 N F ER0 M EY1 SH AH0 N')).to.equal('ˌɪnfɚˈmeɪʃən');
    expect(ipaOf('T AH0 M EY1 T OW2')).to.equal('təˈmeɪˌtoʊ');
    expect(ipaOf('TH IH1 NG K IH0 NG')).to.equal('ˈθɪŋkɪŋ');
    expect(() => ipaOf('R AX1 N')).to.throw('Not an ARPAbet phoneme');
    expect(primaryStressSyllable('R IH0 K AO1 R D')).to.equal(1);
    expect(primaryStressSyllable('S T')).to.equal(undefined);
  });

  it('counts letters added, left out, replaced and neighbours swapped as one edit each, up to a bound', () => {
    const distance = (a: string, b: string, max = 2) =>
      distanceWithin(Buffer.from(a), 0, a.length, Buffer.from(b), max);
    expect(distance('receive', 'recieve')).to.equal(1);
    expect(distance('definitely', 'definately')).to.equal(1);
    expect(distance('the', 'teh')).to.equal(1);
    expect(distance('goose', 'goose')).to.equal(0);
    expect(distance('kitten', 'sitting')).to.equal(3);
    expect(distance('kitten', 'sitting', 3)).to.equal(3);
    expect(distance('cat', 'elephant')).to.equal(3);
  });

  it('reads the words of a text as lemmas are compared with them', () => {
    expect(wordsOf("The dog's bone, good-looking; 'quoted' Don’t")).to.deep.equal([
      'the',
      'dog',
      'bone',
      'good',
      'looking',
      'quoted',
      "don't",
    ]);
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
