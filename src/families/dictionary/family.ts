import { defineFamily } from '../../wiring/family.js';
import { dictionarySamples } from './dictionary-samples.js';
import { DictionaryPermission } from './domain/permissions.js';
import { dictionaryModule, DictionaryUseCases } from './dictionary-module.js';

/** WordNet's definitions, synonyms and antonyms. */
export const dictionary = defineFamily({
  name: 'dictionary',
  permissions: DictionaryPermission,
  module: () => dictionaryModule(),
  useCases: DictionaryUseCases,
  samples: dictionarySamples,
});
