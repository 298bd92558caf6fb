import type { RouteSampleTable } from '../../platform/http/route-samples.js';

export const locationSamples: RouteSampleTable = {
  // The requests the reference shows: a name and a point, as most people ask, in no other language.
  'GET /location/coords': {
    example: { query: { address: 'Paris', limit: '3' } },
    query: {
      address: ['Paris', 'Paris, FR', 'saint etienne', 'Springfield, usa', 'nowhere at all'],
      limit: ['1', '5', '50', '51', '0'],
      mode: ['name', 'prefix', 'fuzzy'],
      lang: ['ja', 'de', 'en', 'xx', 'DE'],
    },
  },
  'GET /location/address': {
    example: { query: { lat: '48.85', lon: '2.35', limit: '3' } },
    query: {
      lat: ['48.85', '-33.9', '90', '91', '1e3'],
      lon: ['2.35', '151.2', '-180', '181'],
      limit: ['1', '5', '50'],
      lang: ['ja', 'ko', 'xx'],
    },
  },
  'GET /location/pluscode': {
    example: { query: { lat: '48.8584', lon: '2.2945' } },
    query: {
      lat: ['48.85', '-33.9', '0'],
      lon: ['2.35', '151.2', '0'],
      length: ['10', '8', '11', '15', '3', '16'],
      code: ['8FW4V75V+8Q', 'V75V+8Q', 'V75V+8Q Paris', '22+', '8FJFW222+', 'not+a+code'],
      near: ['Paris', 'Paris, FR', 'nowhere at all'],
    },
    // A point to encode, or a code to decode (a short one near a place).
    oneWayOf: [
      ['query lat', 'query lon', 'query length'],
      ['query code', 'query near'],
    ],
  },
};
