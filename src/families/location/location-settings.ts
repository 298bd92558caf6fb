import * as t from 'io-ts';
import {
  asInteger,
  asString,
  httpUrlOrOff,
  intInRange,
  type SettingsSection,
  upstreamCallSettings,
} from '../../platform/config/codecs.js';
import { DEFAULT_NEARBY_KM } from './domain/location-queries.js';

/** The geocoders whose API the location family speaks. */
export const GEOCODER_APIS = ['photon', 'nominatim'] as const;

export const LocationSettingsCodec = t.type({
  /** A point farther than this from every place is answered as far from places (at sea, in a desert). */
  nearbyKm: intInRange(1, 20_000),
  /**
   * The operator's geocoder, asked for what the offline gazetteer cannot know (postal codes, street
   * addresses), or `off` (the default): nothing then leaves the server.
   */
  geocoderUrl: httpUrlOrOff,
  geocoderApi: t.keyof({ photon: null, nominatim: null }),
  /** How long the geocoder's answer to a text is kept, and how many answers at most. */
  geocoderTtlMs: intInRange(0, 30 * 86_400_000),
  geocoderCacheEntries: intInRange(1, 1_000_000),
  /** The geocoder's deadline and back-off, as every upstream has them. */
  ...upstreamCallSettings,
});
export type LocationSettings = t.TypeOf<typeof LocationSettingsCodec>;

/** The `location` section of the settings files. */
export const locationSettings: SettingsSection<'location', LocationSettings> = {
  key: 'location',
  codec: LocationSettingsCodec,
  defaults: {
    nearbyKm: DEFAULT_NEARBY_KM,
    geocoderUrl: 'off',
    geocoderApi: 'photon',
    geocoderTtlMs: 86_400_000,
    geocoderCacheEntries: 10_000,
    timeoutMs: 5000,
    backoffMs: 30000,
    failureTtlMs: 5000,
    hostTtlMs: 60000,
  },
  environment: [
    { name: 'UTILITY_API_LOCATION_NEARBY_KM', path: 'nearbyKm', parse: asInteger },
    { name: 'UTILITY_API_LOCATION_GEOCODER_URL', path: 'geocoderUrl', parse: asString },
    { name: 'UTILITY_API_LOCATION_GEOCODER_API', path: 'geocoderApi', parse: asString },
  ],
};
