import type { RouteSampleTable } from '../../platform/http/route-samples.js';

const word = ['dog', 'geese', 'ice cream', 'good', "o'clock", 'xyzzyq'];

export const dictionarySamples: RouteSampleTable = {
  'GET /dictionary/def': { query: { word } },
  'GET /dictionary/syn': { query: { word } },
  'GET /dictionary/ant': { query: { word } },
};
