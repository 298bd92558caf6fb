import * as t from 'io-ts';
import { asInteger, intInRange, type SettingsSection } from '../../platform/config/codecs.js';
import { DEFAULT_NEARBY_KM } from './domain/location-queries.js';

export const LocationSettingsCodec = t.type({
  /** A point farther than this from every place is answered as far from places (at sea, in a desert). */
  nearbyKm: intInRange(1, 20_000),
});
export type LocationSettings = t.TypeOf<typeof LocationSettingsCodec>;

/** The `location` section of the settings files. */
export const locationSettings: SettingsSection<'location', LocationSettings> = {
  key: 'location',
  codec: LocationSettingsCodec,
  defaults: { nearbyKm: DEFAULT_NEARBY_KM },
  environment: [{ name: 'UTILITY_API_LOCATION_NEARBY_KM', path: 'nearbyKm', parse: asInteger }],
};
