import type { RouteSampleTable } from '../../platform/http/route-samples.js';

const word = ['dog', 'geese', 'ice cream', 'good', "o'clock", 'xyzzyq'];

export const dictionarySamples: RouteSampleTable = {
  'GET /dictionary/def': { query: { word } },
  'GET /dictionary/syn': { query: { word } },
  // A word with antonyms, so that the example shows some.
  'GET /dictionary/ant': { example: { query: { word: 'good' } }, query: { word } },
};
