import type { RouteSampleTable } from '../../platform/http/route-samples.js';

export const phoneSamples: RouteSampleTable = {
  'GET /phone/details': {
    // A + number says its own country, so the reference shows it alone.
    example: { query: { number: '+1 416 979 2329' } },
    query: {
      number: [
        '+1 416 979 2329',
        '+33 6 12 34 56 78',
        '020 7946 0958',
        '1-800-FLOWERS',
        '911',
        '112',
        '+999 1',
        '00 44 20 7946 0958',
        '+33612345678 ext. 42',
        '555-12AB',
        '+1234567890123456789',
      ],
      country: ['FR', 'gb', 'US', 'ZZ', 'jp'],
      lang: ['de', 'en', 'zh', 'fr', 'xx', 'DE'],
    },
  },
};
