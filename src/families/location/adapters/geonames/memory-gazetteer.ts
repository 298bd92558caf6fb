import { distance } from 'geokdbush';
import {
  MIN_PREFIX_KEY_LENGTH,
  placeNameKey,
  type NearbyPlace,
  type Place,
  type PlaceSearch,
} from '../../domain/places.js';
import type { Gazetteer } from '../../domain/ports.js';

const byPopulation = (a: Place, b: Place) => b.population - a.population;

/** A gazetteer of a few places given to its constructor, searched by plain scans: for tests. */
export class MemoryGazetteer implements Gazetteer {
  private readonly entries: readonly { readonly place: Place; readonly key: string }[];

  constructor(places: readonly Place[] = []) {
    this.entries = places.map((place) => ({ place, key: placeNameKey(place.name) }));
  }

  async search({ key, country, within, limit }: PlaceSearch): Promise<readonly Place[]> {
    const inCountry = this.entries.filter(
      ({ place }) =>
        (country === undefined || place.country === country) &&
        (within === undefined ||
          within.countries.includes(place.country) ||
          (place.admin1 !== null && within.keys.includes(placeNameKey(place.admin1)))),
    );
    const exact = inCountry
      .filter((entry) => entry.key === key)
      .map((entry) => entry.place)
      .sort(byPopulation);
    const prefixed =
      key.length >= MIN_PREFIX_KEY_LENGTH
        ? inCountry
            .filter((entry) => entry.key !== key && entry.key.startsWith(key))
            .map((entry) => entry.place)
            .sort(byPopulation)
        : [];
    return [...exact, ...prefixed].slice(0, limit);
  }

  /** Regions by name only: places carry no region codes. */
  async isRegion(keys: readonly string[]): Promise<boolean> {
    return this.entries.some(({ place }) => place.admin1 !== null && keys.includes(placeNameKey(place.admin1)));
  }

  async nearest(lat: number, lon: number, limit: number): Promise<readonly NearbyPlace[]> {
    return this.entries
      .map(({ place }) => ({ ...place, distanceKm: distance(lon, lat, place.lon, place.lat) }))
      .sort((a, b) => a.distanceKm - b.distanceKm)
      .slice(0, limit);
  }
}
