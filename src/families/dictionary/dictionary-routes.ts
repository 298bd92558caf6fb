import * as t from 'io-ts';
import type { DefineWord, FindAntonyms, FindSynonyms } from './domain/dictionary-queries.js';
import { PARTS_OF_SPEECH } from './domain/sense.js';
import { WORD_PATTERN, WORD_RULE } from './domain/word-forms.js';
import { DictionaryPermission } from './domain/permissions.js';
import { matching, oneOf } from '../../platform/http/codecs.js';
import { required } from '../../platform/http/fields.js';
import { defineRoute, jsonOf, type Route } from '../../platform/http/route-table.js';

export interface DictionaryRouteDependencies {
  readonly defineWord: DefineWord;
  readonly findSynonyms: FindSynonyms;
  readonly findAntonyms: FindAntonyms;
}

const word = {
  word: required(
    matching(WORD_PATTERN, WORD_RULE),
    'the word, in any inflected form ("geese", "ran") or several words ("ice cream"); case does not matter',
  ),
};

/** The word as asked (normalised) and the base forms its answer comes from. */
const lookedUp = { word: t.string, lemmas: t.readonlyArray(t.string) };

const definitions = t.strict({
  ...lookedUp,
  definitions: t.readonlyArray(
    t.strict({
      lemma: t.string,
      partOfSpeech: oneOf(PARTS_OF_SPEECH, 'a part of speech'),
      definition: t.string,
      examples: t.readonlyArray(t.string),
    }),
  ),
});
const synonyms = t.strict({ ...lookedUp, synonyms: t.readonlyArray(t.string) });
const antonyms = t.strict({ ...lookedUp, antonyms: t.readonlyArray(t.string) });

/** A word no lemma of the lexicon matches, or one with nothing of the kind asked. */
const unknownWord = ['InformationNotFound'] as const;

export function dictionaryRoutes(deps: DictionaryRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/dictionary/def',
      permission: DictionaryPermission.DictionaryDefinitions,
      summary: "A word's definitions and examples from WordNet, per lemma and part of speech",
      query: word,
      response: definitions,
      errors: unknownWord,
      handle: async ({ query }) => jsonOf(await deps.defineWord.execute(query.word)),
    }),
    defineRoute({
      method: 'GET',
      path: '/dictionary/syn',
      permission: DictionaryPermission.DictionarySynonyms,
      summary: "A word's synonyms from WordNet, most frequent sense first",
      query: word,
      response: synonyms,
      errors: unknownWord,
      handle: async ({ query }) => jsonOf(await deps.findSynonyms.execute(query.word)),
    }),
    defineRoute({
      method: 'GET',
      path: '/dictionary/ant',
      permission: DictionaryPermission.DictionaryAntonyms,
      summary: "A word's antonyms from WordNet",
      query: word,
      response: antonyms,
      errors: unknownWord,
      handle: async ({ query }) => jsonOf(await deps.findAntonyms.execute(query.word)),
    }),
  ];
}
