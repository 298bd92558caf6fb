import type { RouteSampleTable } from '../../platform/http/route-samples.js';

export const phoneSamples: RouteSampleTable = {
  'GET /phone/details': {
    query: {
      number: [
        '+33 6 12 34 56 78',
        '020 7946 0958',
        '+1 650 253 0000',
        '+999 1',
        '00 44 20 7946 0958',
        '+33612345678 ext. 42',
        '+1234567890123456789',
      ],
      country: ['FR', 'gb', 'US', 'ZZ', 'jp'],
    },
  },
};
