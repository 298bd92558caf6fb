import { defineFamily } from '../../composition/family.js';
import { dictionaryModule, DictionaryUseCases } from './dictionary-module.js';

/** WordNet's definitions, synonyms and antonyms. */
export const dictionary = defineFamily({
  name: 'dictionary',
  module: () => dictionaryModule(),
  useCases: DictionaryUseCases,
});
