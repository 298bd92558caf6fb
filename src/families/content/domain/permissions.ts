/** The permissions of the content family: what its routes and use cases ask of who calls them. */
export const ContentPermission = {
  FactsCat: 'Facts::Cat',
  FactsDog: 'Facts::Dog',
  FactsChuckNorris: 'Facts::ChuckNorris',
  FactsRandom: 'Facts::Random',
  /** Listing stored facts and their categories: the whole store, not one at random. */
  FactsList: 'Facts::List',
  QuotesRandom: 'Quotes::Random',
  /** Listing stored quotes, their authors and tags: the whole store, not one at random. */
  QuotesList: 'Quotes::List',
  QuotesKanye: 'Quotes::Kanye',
  QuotesRonSwanson: 'Quotes::RonSwanson',
} as const;
