import { readFileSync } from 'node:fs';
import { startFixtureServer, type FixtureServer, type Recorded } from './fixture-server.js';

/**
 * Photon's `/api` and Nominatim's `/search` on loopback, answering from answers this project wrote
 * in the shapes each documents (tests/support/geocoders/*.json: the White House by its street
 * address, the postal codes 10001 and SW1A 1AA; each file also holds a result without a usable
 * point, which an adapter must leave out). As the real ones do, they match the text whatever its
 * case, give at most `limit` results, and answer an empty list for a text they do not know.
 */
export type GeocoderApi = 'photon' | 'nominatim';

const read = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`geocoders/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

const ANSWERS = { photon: read('photon'), nominatim: read('nominatim') };
const PATHS = { photon: '/api', nominatim: '/search' };

/** Texts each fixture knows, as a person would write them. */
export const GEOCODED = {
  whiteHouse: '1600 Pennsylvania Avenue',
  newYorkPostcode: '10001',
  londonPostcode: 'SW1A 1AA',
};

function answerOf(api: GeocoderApi, path: string): Recorded | undefined {
  const url = new URL(path, 'http://geocoder.test');
  if (url.pathname !== PATHS[api]) return undefined;
  const text = (url.searchParams.get('q') ?? '').toLowerCase();
  const limit = Number(url.searchParams.get('limit') ?? 10);
  const recorded = ANSWERS[api][text];
  if (api === 'photon') {
    const features = ((recorded as { features?: unknown[] } | undefined)?.features ?? []).slice(0, limit);
    return { body: { type: 'FeatureCollection', features } };
  }
  return { body: ((recorded as unknown[] | undefined) ?? []).slice(0, limit) };
}

export function startGeocoderFixture(api: GeocoderApi): Promise<FixtureServer> {
  return startFixtureServer({ recordings: (path) => answerOf(api, path) });
}

/** The White House as every geocoder adapter reads it from its answer (the label aside, which each writes its own way). */
export const WHITE_HOUSE = {
  name: 'White House',
  country: 'US',
  admin1: 'District of Columbia',
  admin2: null,
  lat: 38.8976763,
  lon: -77.0365298,
  address: {
    houseNumber: '1600',
    street: 'Pennsylvania Avenue Northwest',
    postcode: '20500',
    locality: 'Washington',
  },
};
