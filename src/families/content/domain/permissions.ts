/** The permissions of the content family: what its routes and use cases ask of who calls them. */
export const ContentPermission = {
  FactsCat: 'Facts::Cat',
  FactsDog: 'Facts::Dog',
  FactsChuckNorris: 'Facts::ChuckNorris',
  FactsRandom: 'Facts::Random',
  QuotesRandom: 'Quotes::Random',
  QuotesKanye: 'Quotes::Kanye',
  QuotesRonSwanson: 'Quotes::RonSwanson',
} as const;
