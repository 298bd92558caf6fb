import { mostly, type RouteSamples, type RouteSampleTable } from '../../platform/http/route-samples.js';

/** Where to ask the weather: places and points the test fixtures know, and some that are not or cannot be. */
const place = {
  query: {
    lat: mostly(['52.52', '48.8566', '-33.87'], ['91', '1e3']),
    lon: mostly(['13.41', '2.3522', '151.21'], ['181']),
    city: mostly(['Berlin', 'Paris, FR', 'saint etienne'], ['nowhere at all', 'Paris, Atlantis']),
    units: mostly(['metric', 'imperial'], ['kelvin']),
    timezone: mostly(['auto', 'Europe/Paris', 'Asia/Tokyo'], ['Antarctica/Troll', 'europe/paris', 'Mars/Olympus']),
  },
  headers: {
    'x-coords': mostly(['52.52,13.41', '48.85, 2.35'], ['91,0', 'north,east']),
    'x-city': mostly(['Berlin', 'Paris, FR'], ['nowhere at all']),
  },
  oneWayOf: [['query lat', 'query lon'], ['query city'], ['headers x-coords'], ['headers x-city']],
} satisfies RouteSamples;

/** The air takes no units: its measures are the same in both systems. */
const { units: _units, ...airQuery } = place.query;

export const weatherSamples: RouteSampleTable = {
  'GET /weather/current': place,
  'GET /weather/forecast': { ...place, query: { ...place.query, days: mostly(['1', '7', '16'], ['17', '0']) } },
  'GET /weather/hourly': place,
  'GET /weather/air': { ...place, query: airQuery },
};
