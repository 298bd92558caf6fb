import { distance } from 'geokdbush';
import { mostPopulousFirst, rankNamed, SeatRank, typeAheadScore } from '../../domain/place-ranking.js';
import {
  MIN_PREFIX_KEY_LENGTH,
  placeNameKey,
  type NearbyPlace,
  type Place,
  type PlaceSearch,
} from '../../domain/places.js';
import type { Gazetteer } from '../../domain/ports.js';

/** A place as the memory gazetteer is given it, with what GeoNames would know of it beyond the API's fields. */
export interface GazetteerEntry {
  readonly place: Place;
  /** Default: any other place. */
  readonly seat?: SeatRank;
  /** The names it is known by beyond its own (`Roma` for Rome); default none. */
  readonly otherNames?: readonly string[];
  /** Its name by ISO 639-1 language, as `localizedName` answers it; default none. */
  readonly namesIn?: Readonly<Record<string, string>>;
}

interface Entry {
  readonly place: Place;
  readonly key: string;
  readonly seat: SeatRank;
  readonly otherKeys: readonly string[];
  readonly namesIn: Readonly<Record<string, string>>;
}

const inLanguage = (entry: Entry, lang: string | undefined): Place =>
  lang === undefined ? entry.place : { ...entry.place, localizedName: entry.namesIn[lang] ?? null };

const reader = {
  seatOf: (entry: Entry) => entry.seat,
  populationOf: (entry: Entry) => entry.place.population,
  regionOf: (entry: Entry) =>
    entry.place.admin1 === null ? undefined : `${entry.place.country}.${entry.place.admin1}`,
};

/** A gazetteer of a few places given to its constructor, searched by plain scans and ranked as the domain ranks: for tests. */
export class MemoryGazetteer implements Gazetteer {
  private readonly entries: readonly Entry[];

  constructor(places: readonly (Place | GazetteerEntry)[] = []) {
    this.entries = places.map((given) => {
      const {
        place,
        seat = SeatRank.other,
        otherNames = [],
        namesIn = {},
      } = 'place' in given ? given : { place: given };
      return { place, key: placeNameKey(place.name), seat, otherKeys: otherNames.map(placeNameKey), namesIn };
    });
  }

  async search({ key, country, within, limit, lang }: PlaceSearch): Promise<readonly Place[]> {
    const inCountry = this.entriesIn(country, within);
    const exact = rankNamed(
      inCountry.filter((entry) => entry.key === key),
      inCountry.filter((entry) => entry.otherKeys.includes(key)),
      reader,
    );
    const prefixed =
      key.length >= MIN_PREFIX_KEY_LENGTH
        ? inCountry
            .filter((entry) => entry.key !== key && entry.key.startsWith(key) && !exact.includes(entry))
            .sort(mostPopulousFirst(reader))
        : [];
    return [...exact, ...prefixed].slice(0, limit).map((entry) => inLanguage(entry, lang));
  }

  async startingWith({ key, country, within, limit, lang }: PlaceSearch): Promise<readonly Place[]> {
    const score = (entry: Entry) => typeAheadScore(entry.seat, entry.place.population);
    return this.entriesIn(country, within)
      .filter((entry) => entry.key.startsWith(key))
      .sort((a, b) => score(b) - score(a) || b.place.population - a.place.population)
      .slice(0, limit)
      .map((entry) => inLanguage(entry, lang));
  }

  /** Regions by name only: places carry no region codes. */
  async isRegion(keys: readonly string[]): Promise<boolean> {
    return this.entries.some(({ place }) => place.admin1 !== null && keys.includes(placeNameKey(place.admin1)));
  }

  private entriesIn(country: string | undefined, within: PlaceSearch['within']): Entry[] {
    return this.entries.filter(
      ({ place }) =>
        (country === undefined || place.country === country) &&
        (within === undefined ||
          within.countries.includes(place.country) ||
          (place.admin1 !== null && within.keys.includes(placeNameKey(place.admin1)))),
    );
  }

  async nearest(lat: number, lon: number, limit: number, lang?: string): Promise<readonly NearbyPlace[]> {
    return this.entries
      .map((entry) => ({
        ...inLanguage(entry, lang),
        distanceKm: distance(lon, lat, entry.place.lon, entry.place.lat),
      }))
      .sort((a, b) => a.distanceKm - b.distanceKm)
      .slice(0, limit);
  }
}
