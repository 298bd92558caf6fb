import * as E from 'fp-ts/lib/Either.js';
import type { DefineWord, FindAntonyms, FindSynonyms } from '../../../domain/dictionary/dictionary-queries.js';
import { WORD_PATTERN, WORD_RULE } from '../../../domain/dictionary/word-forms.js';
import { Permission } from '../../../domain/permissions.js';
import { matching, required } from '../fields.js';
import { defineRoute, json, type Route } from '../route-table.js';

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

export function dictionaryRoutes(deps: DictionaryRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/dictionary/def',
      permission: Permission.DictionaryDefinitions,
      summary: "A word's definitions and examples from WordNet, per lemma and part of speech",
      query: word,
      headers: {},
      status: 200,
      produces: 'application/json',
      handle: async ({ query }) => E.map(json)(await deps.defineWord.execute(query.word)),
    }),
    defineRoute({
      method: 'GET',
      path: '/dictionary/syn',
      permission: Permission.DictionarySynonyms,
      summary: "A word's synonyms from WordNet, most frequent sense first",
      query: word,
      headers: {},
      status: 200,
      produces: 'application/json',
      handle: async ({ query }) => E.map(json)(await deps.findSynonyms.execute(query.word)),
    }),
    defineRoute({
      method: 'GET',
      path: '/dictionary/ant',
      permission: Permission.DictionaryAntonyms,
      summary: "A word's antonyms from WordNet",
      query: word,
      headers: {},
      status: 200,
      produces: 'application/json',
      handle: async ({ query }) => E.map(json)(await deps.findAntonyms.execute(query.word)),
    }),
  ];
}
