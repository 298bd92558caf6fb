import * as t from 'io-ts';
import type { Antonyms, Definitions, Synonyms, WordQuery } from './domain/dictionary-queries.js';
import { PARTS_OF_SPEECH } from './domain/sense.js';
import { WORD_PATTERN, WORD_RULE } from './domain/word-forms.js';
import { DictionaryPermission } from './domain/permissions.js';
import { matching, numberWritten, oneOf } from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, jsonOf, type Route } from '../../platform/http/route-table.js';

export interface DictionaryRouteDependencies {
  readonly defineWord: WordQuery<Definitions>;
  readonly findSynonyms: WordQuery<Synonyms>;
  readonly findAntonyms: WordQuery<Antonyms>;
}

/** More than any word has senses ("break": 75), so that any answer can be asked whole. */
const MAX_LIMIT = 100;

const partOfSpeech = oneOf(PARTS_OF_SPEECH, 'a part of speech');

/** The word, and what narrows the answer; `kind` names what `limit` counts. */
const wordQuery = (kind: string) => ({
  word: required(
    matching(WORD_PATTERN, WORD_RULE),
    'the word, in any inflected form ("geese", "ran") or several words ("ice cream"); case does not matter',
  ),
  pos: optional(partOfSpeech, 'only the senses of this part of speech'),
  limit: optional(
    numberWritten(/^[0-9]{1,3}$/, 1, MAX_LIMIT, `a whole number from 1 to ${MAX_LIMIT}`, 'integer'),
    `at most this many ${kind}, the most frequent; all by default`,
  ),
});

/** The word as asked (normalised) and the base forms its answer comes from. */
const lookedUp = { word: t.string, lemmas: t.readonlyArray(t.string) };

/** A sense as the synonym and antonym answers name it. */
const senseNamed = { lemma: t.string, partOfSpeech, definition: t.string };

const definitions = t.strict({
  ...lookedUp,
  definitions: t.readonlyArray(
    t.strict({
      lemma: t.string,
      partOfSpeech,
      definition: t.string,
      examples: t.readonlyArray(t.string),
    }),
  ),
  pronunciations: t.readonlyArray(
    t.strict({ ipa: t.string, arpabet: t.string, partsOfSpeech: t.readonlyArray(partOfSpeech) }),
  ),
});
const synonyms = t.strict({
  ...lookedUp,
  synonyms: t.readonlyArray(t.string),
  senses: t.readonlyArray(t.strict({ ...senseNamed, synonyms: t.readonlyArray(t.string) })),
});
const antonyms = t.strict({
  ...lookedUp,
  antonyms: t.readonlyArray(t.string),
  senses: t.readonlyArray(t.strict({ ...senseNamed, antonyms: t.readonlyArray(t.string) })),
});

/** A word no lemma of the lexicon matches (with suggestions), or none in the part of speech asked. */
const unknownWord = ['InformationNotFound'] as const;

export function dictionaryRoutes(deps: DictionaryRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/dictionary/def',
      permission: DictionaryPermission.DictionaryDefinitions,
      summary: "A word's definitions and examples from WordNet, most frequent sense first, and its pronunciations",
      query: wordQuery('senses'),
      response: definitions,
      errors: unknownWord,
      handle: async ({ query: { word, pos, limit } }) =>
        jsonOf(await deps.defineWord.execute(word, { partOfSpeech: pos, limit })),
    }),
    defineRoute({
      method: 'GET',
      path: '/dictionary/syn',
      permission: DictionaryPermission.DictionarySynonyms,
      summary: "A word's synonyms from WordNet, per sense and in one list, most frequent sense first",
      query: wordQuery('senses with synonyms'),
      response: synonyms,
      errors: unknownWord,
      handle: async ({ query: { word, pos, limit } }) =>
        jsonOf(await deps.findSynonyms.execute(word, { partOfSpeech: pos, limit })),
    }),
    defineRoute({
      method: 'GET',
      path: '/dictionary/ant',
      permission: DictionaryPermission.DictionaryAntonyms,
      summary: "A word's antonyms from WordNet, per sense and in one list, most frequent sense first",
      query: wordQuery('senses with antonyms'),
      response: antonyms,
      errors: unknownWord,
      handle: async ({ query: { word, pos, limit } }) =>
        jsonOf(await deps.findAntonyms.execute(word, { partOfSpeech: pos, limit })),
    }),
  ];
}
