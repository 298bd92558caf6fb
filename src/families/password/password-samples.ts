import { mostly, type RouteSampleTable } from '../../platform/http/route-samples.js';

const flag = mostly(['true', 'false'], ['yes', '1', '']);

export const passwordSamples: RouteSampleTable = {
  'GET /password/gen': {
    query: {
      length: mostly(['20', '8', '128', '32'], ['7', '129', '020x', '-1']),
      lower: flag,
      upper: flag,
      digits: flag,
      symbols: flag,
      exclude: mostly(['lookalike', '0O1lI', '"\'`\\', 'abcdefghij'], ['a b', 'é', '0123456789']),
      words: mostly(['6', '4', '12'], ['3', '13', 'six']),
    },
    oneWayOf: [
      ['query length', 'query lower', 'query upper', 'query digits', 'query symbols', 'query exclude'],
      ['query words'],
    ],
    example: { query: { length: '24', exclude: 'lookalike' } },
  },
};
