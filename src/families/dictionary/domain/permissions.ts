/** The permissions of the dictionary family: what its routes and use cases ask of who calls them. */
export const DictionaryPermission = {
  DictionaryDefinitions: 'Dictionary::Definitions',
  DictionarySynonyms: 'Dictionary::Synonyms',
  DictionaryAntonyms: 'Dictionary::Antonyms',
} as const;
