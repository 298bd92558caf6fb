import type { RouteSampleTable } from '../../platform/http/route-samples.js';

export const cryptoSamples: RouteSampleTable = {
  'GET /crypto/enc': { query: { data: ['hello', 'café ☕', '中文', 'a b&c=d', '1'] } },
  'GET /crypto/dec': { query: { data: { existing: 'ciphertext', otherwise: ['AAAA', 'not-a-ciphertext'] } } },
};
