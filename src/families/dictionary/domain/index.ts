/** What other families and library users may use of the dictionary: its use cases, what they answer, its port and its permissions. */
export type {
  Antonyms,
  DefineWord,
  Definitions,
  FindAntonyms,
  FindSynonyms,
  Synonyms,
  WordQuery,
} from './dictionary-queries.js';
export type { Lexicon, LexiconLoader } from './ports.js';
export { DictionaryPermission } from './permissions.js';
