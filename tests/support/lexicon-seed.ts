import type { SeededIrregularForm, SeededLemma } from '../../src/families/dictionary/adapters/memory-lexicon.js';
import type { Sense } from '../../src/families/dictionary/domain/sense.js';

/** WordNet 3.1's first senses of a few words, as its files give them. */
export const GOOSE_FIRST_SENSE: Sense = {
  partOfSpeech: 'noun',
  definition:
    'web-footed long-necked typically gregarious migratory aquatic birds usually larger and less aquatic than ducks',
  examples: [],
  words: ['goose'],
  tagCount: 3,
};

export const HOT_FIRST_SENSE: Sense = {
  partOfSpeech: 'adjective',
  definition:
    'used of physical heat; having a high or higher than desirable temperature or giving off heat or feeling or causing a sensation of heat or burning',
  examples: [
    'hot stove',
    'hot water',
    'a hot August day',
    'a hot stuffy room',
    "she's hot and tired",
    'a hot forehead',
  ],
  words: ['hot'],
  tagCount: 50,
};

export const ICE_CREAM_SENSE: Sense = {
  partOfSpeech: 'noun',
  definition: 'frozen dessert containing cream and sugar and flavoring',
  examples: [],
  words: ['ice cream', 'icecream'],
  tagCount: 1,
};

const senseOf = ({ partOfSpeech: _partOfSpeech, ...sense }: Sense) => sense;

/** What the in-memory lexicon is seeded with: the same world the contract expects of WordNet. */
export const SEEDED_LEMMAS: readonly SeededLemma[] = [
  {
    lemma: 'goose',
    partOfSpeech: 'noun',
    senses: [
      senseOf(GOOSE_FIRST_SENSE),
      {
        definition: 'a man who is a stupid incompetent fool',
        examples: [],
        words: ['fathead', 'goof', 'goofball', 'bozo', 'jackass', 'goose', 'cuckoo', 'twat', 'zany'],
      },
    ],
  },
  {
    lemma: 'hot',
    partOfSpeech: 'adjective',
    senses: [
      { ...senseOf(HOT_FIRST_SENSE), antonyms: ['cold'] },
      {
        definition: 'characterized by violent and forceful activity or movement; very intense',
        examples: [
          'the fighting became hot and heavy',
          'a hot engagement',
          'a raging battle',
          'the river became a raging torrent',
        ],
        words: ['hot', 'raging'],
        indirectAntonyms: ['nonviolent'],
      },
    ],
  },
  {
    lemma: 'cold',
    partOfSpeech: 'adjective',
    senses: [
      {
        definition:
          'having a low or inadequate temperature or feeling a sensation of coldness or having been made cold by e.g. ice or refrigeration',
        examples: [
          'a cold climate',
          'a cold room',
          'dinner has gotten cold',
          'cold fingers',
          'if you are cold, turn up the heat',
          'a cold beer',
        ],
        words: ['cold'],
        antonyms: ['hot'],
      },
    ],
  },
  {
    lemma: 'torrid',
    partOfSpeech: 'adjective',
    senses: [
      {
        definition: 'characterized by intense emotion',
        examples: [
          'ardent love',
          'an ardent lover',
          'a fervent desire to change society',
          'a fervent admirer',
          'fiery oratory',
          'an impassioned appeal',
          'a torrid love affair',
        ],
        words: ['ardent', 'fervent', 'fervid', 'fiery', 'impassioned', 'perfervid', 'torrid'],
        indirectAntonyms: ['passionless'],
      },
      {
        definition: 'emotionally charged and vigorously energetic',
        examples: ['a torrid dance', 'torrid jazz bands', 'hot trumpets and torrid rhythms'],
        words: ['torrid'],
        indirectAntonyms: ['cold'],
      },
    ],
  },
  { lemma: 'ice cream', partOfSpeech: 'noun', senses: [senseOf(ICE_CREAM_SENSE)] },
];

export const SEEDED_IRREGULAR_FORMS: readonly SeededIrregularForm[] = [
  { form: 'geese', partOfSpeech: 'noun', baseForms: ['goose'] },
];
