import type { RouteSampleTable } from '../../platform/http/route-samples.js';

const word = ['dog', 'geese', 'ice cream', 'good', "o'clock", 'xyzzyq', 'recieve', 'run'];
/** Narrowing: mostly well-formed, and a few a client might mistype (refused, never ignored). */
const narrowing = {
  pos: { often: ['noun', 'verb', 'adjective', 'adverb'], seldom: ['Noun', 'adj', ''] },
  limit: { often: ['3', '1', '100'], seldom: ['0', '101', 'two'] },
};

export const dictionarySamples: RouteSampleTable = {
  // Examples that show what people ask most: a verb sense before the nouns, quick among fast's synonyms.
  'GET /dictionary/def': { example: { query: { word: 'run', limit: '3' } }, query: { word, ...narrowing } },
  'GET /dictionary/syn': { example: { query: { word: 'fast', limit: '3' } }, query: { word, ...narrowing } },
  // A word with antonyms, so that the example shows some.
  'GET /dictionary/ant': { example: { query: { word: 'good' } }, query: { word, ...narrowing } },
};
