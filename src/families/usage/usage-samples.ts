import { mostly, type RouteSampleTable, type SampleValues } from '../../platform/http/route-samples.js';

const tokenId: SampleValues = {
  existing: 'token',
  otherwise: ['00000000-0000-4000-8000-000000000000', 'not-a-token-id'],
};
const uid: SampleValues = { existing: 'user', otherwise: ['nobody', 'not a uid!'] };

/** Instants well-formed and not: dates, times with offsets, impossible days, no offset, other notations. */
const instant = [
  '2026-11-26',
  '2026-11-26T13:00:00Z',
  '2026-11-26T13:30:15.250+01:00',
  '2026-11-01T00:00Z',
  '2025-11-26T00:00:00Z',
  '2026-02-30',
  '2026-11-26T13:00:00',
  '1969-12-31',
  '1764162000000',
  'yesterday',
];
// Well-formed values mostly: a range is refused when any of its four fields is.
const range = {
  from: mostly(instant.slice(0, 5), instant.slice(5)),
  to: mostly(instant.slice(0, 5), instant.slice(5)),
  by: mostly(['hour', 'day', 'week'], ['HOUR']),
  group: mostly(['operation', 'status', 'token'], ['']),
};

export const usageSamples: RouteSampleTable = {
  'GET /token/usage': {
    // The last seven days (the default range), a day at a time.
    example: { query: { by: 'day' } },
    query: { id: tokenId, ...range },
  },
  'GET /user/usage': {
    example: { query: { by: 'day', group: 'operation' } },
    query: range,
    headers: { 'x-uid': uid },
  },
};
