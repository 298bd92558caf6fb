import { existsSync } from 'node:fs';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import KDBush from 'kdbush';
import { loadGeoNames, type GeoNames } from './geonames-data.js';
import type { NameIndex } from './name-index.js';
import type { PlaceNames } from './place-names.js';
import { GEONAMES_FILES, type PlaceTable } from './place-table.js';

/**
 * GeoNames' places as the gazetteer holds them (the table, its details, the name and position
 * indexes), written by `npm run build` into one file beside the built module
 * (scripts/geonames-snapshot.js), so that the first search of places reads 27 MB of columns
 * instead of parsing GeoNames' 200k lines and building its indexes: about 0.05 s rather than 1.2 s
 * on the 2-core machines we measure on (see docs/families/location.md). Nothing is downloaded: the snapshot is
 * made of the installed packages, and records each file it was made of by its size and its
 * package's version, so that data updated without a build is read again from the packages.
 * src/ has no snapshot: the tests that import it parse the packages.
 */
export const GEONAMES_SNAPSHOT_FILE = fileURLToPath(new URL('./geonames.snapshot', import.meta.url));

const MAGIC = 'UAGEO001';
/** Columns start at multiples of this, so each can be a view of the file's bytes. */
const ALIGN = 8;

const COLUMN_TYPES = { Uint8Array, Uint16Array, Int32Array, Uint32Array } as const;
type ColumnType = keyof typeof COLUMN_TYPES;
type Column = Uint8Array | Uint16Array | Int32Array | Uint32Array;

interface Header {
  readonly sources: Sources;
  readonly count: number;
  readonly alternates: number;
  readonly strings: {
    readonly admin1Names: readonly string[];
    readonly admin1Codes: readonly string[];
    readonly admin2Names: readonly string[];
    readonly timeZoneNames: readonly string[];
  };
  /** Each column by name: its type, where it starts in the file and how many elements it has. */
  readonly columns: Readonly<Record<string, { type: ColumnType; at: number; length: number }>>;
}

/** Each file the data is read from, by name: its size and the version of the package it lies in. */
type Sources = Readonly<Record<string, string>>;

type GeoNamesFiles = typeof GEONAMES_FILES;

/** The data from the build's snapshot when it was made of the installed packages, else read from them. */
export async function loadGeoNamesPreferringSnapshot(
  files: GeoNamesFiles = GEONAMES_FILES,
  snapshot = GEONAMES_SNAPSHOT_FILE,
): Promise<GeoNames> {
  return (await readGeoNamesSnapshot(await sourcesOf(files), files.cities500(), snapshot)) ?? loadGeoNames(files);
}

/** What identifies the files the data would be read from now. */
export async function sourcesOf(files: GeoNamesFiles = GEONAMES_FILES): Promise<Sources> {
  const entries = await Promise.all(
    Object.entries(files).map(async ([name, path]) => {
      const file = path();
      return [name, `${(await stat(file)).size} bytes, ${await packageVersionOf(file)}`] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** The name and version of the package a file lies in (the nearest package.json above it). */
async function packageVersionOf(file: string): Promise<string> {
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(await readFile(manifest, 'utf8')) as { name?: string; version?: string };
      return `${name}@${version}`;
    }
    if (dirname(folder) === folder) return 'no package';
  }
}

/** Every column of the data, by the name the snapshot gives it; the position index last, as the reader reads it apart. */
function columnsOf({ table, details, names, positions }: GeoNames): Record<string, Column> {
  const index = names();
  const alternates = details.alternates;
  return {
    'table.nameBytes': table.nameBytes,
    'table.nameStart': table.nameStart,
    'table.countries': table.countries,
    'table.admin1': table.admin1,
    'table.geonamesIds': table.geonamesIds,
    'table.latE5': table.latE5,
    'table.lonE5': table.lonE5,
    'table.population': table.population,
    'details.ranks': details.ranks,
    'details.admin2': details.admin2,
    'details.timeZones': details.timeZones,
    'details.otherNamesAt': details.otherNamesAt,
    'details.otherNamesLength': details.otherNamesLength,
    'alternates.keyBytes': alternates.keyBytes,
    'alternates.keyStart': alternates.keyStart,
    'alternates.place': alternates.place,
    'alternates.heads': alternates.heads,
    'alternates.next': alternates.next,
    'names.keyBytes': index.keyBytes,
    'names.keyStart': index.keyStart,
    ...chainColumns('names.byKey', index.byKey),
    ...chainColumns('names.byPrefix', index.byPrefix),
    ...chainColumns('names.byLongPrefix', index.byLongPrefix),
    ...chainColumns('names.byFirstByte', index.byFirstByte),
    ...chainColumns('names.byFirstTwoBytes', index.byFirstTwoBytes),
    positions: new Uint8Array(positions().data),
  };
}

const chainColumns = (name: string, chains: NameIndex['byKey']): Record<string, Column> => ({
  [`${name}.heads`]: chains.heads,
  [`${name}.next`]: chains.next,
});

const columnTypeOf = (column: Column): ColumnType =>
  column instanceof Uint16Array
    ? 'Uint16Array'
    : column instanceof Int32Array
      ? 'Int32Array'
      : column instanceof Uint32Array
        ? 'Uint32Array'
        : 'Uint8Array';

const aligned = (at: number) => Math.ceil(at / ALIGN) * ALIGN;

/** Writes the data, with the sources it was read from, to `file`. */
export async function writeGeoNamesSnapshot(data: GeoNames, sources: Sources, file = GEONAMES_SNAPSHOT_FILE) {
  const columns = Object.entries(columnsOf(data));
  const placed: Record<string, Header['columns'][string]> = {};
  let at = 0;
  for (const [name, column] of columns) {
    placed[name] = { type: columnTypeOf(column), at, length: column.length };
    at = aligned(at + column.byteLength);
  }
  const { table, details } = data;
  const header: Header = {
    sources,
    count: table.count,
    alternates: details.alternates.count,
    strings: {
      admin1Names: table.admin1Names,
      admin1Codes: table.admin1Codes,
      admin2Names: details.admin2Names,
      timeZoneNames: details.timeZoneNames,
    },
    columns: placed,
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const columnsStart = aligned(MAGIC.length + 4 + headerBytes.length);
  const bytes = Buffer.alloc(columnsStart + at);
  bytes.write(MAGIC, 0, 'latin1');
  bytes.writeUInt32LE(headerBytes.length, MAGIC.length);
  headerBytes.copy(bytes, MAGIC.length + 4);
  for (const [name, column] of columns)
    bytes.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), columnsStart + placed[name]!.at);
  await writeFile(file, bytes);
}

/**
 * The data of the snapshot at `file`, or undefined when there is none or it was made of other
 * files than `sources` (the packages changed since the build). A snapshot that is not whole stops
 * the load with what is wrong with it.
 */
export async function readGeoNamesSnapshot(
  sources: Sources,
  cities500: string,
  file = GEONAMES_SNAPSHOT_FILE,
): Promise<GeoNames | undefined> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (handle === undefined) return undefined;
  const broken = (what: string) =>
    new Error(`${file} is not a whole snapshot of the places (${what}): run npm run build`);
  let header: Header;
  let columns: Buffer<ArrayBuffer>;
  let tree: ArrayBuffer;
  try {
    const size = (await handle.stat()).size;
    const readAt = async (into: Uint8Array, position: number) =>
      (await handle.read(into, 0, into.length, position)).bytesRead === into.length;
    const start = Buffer.alloc(MAGIC.length + 4);
    if (!(await readAt(start, 0)) || start.toString('latin1', 0, MAGIC.length) !== MAGIC)
      throw broken('it does not start as one');
    const headerEnd = start.length + start.readUInt32LE(MAGIC.length);
    if (headerEnd > size) throw broken('its header is cut short');
    const headerBytes = Buffer.alloc(headerEnd - start.length);
    await readAt(headerBytes, start.length);
    try {
      header = JSON.parse(headerBytes.toString('utf8')) as Header;
    } catch {
      throw broken('its header is not JSON');
    }
    if (JSON.stringify(header.sources) !== JSON.stringify(sources)) return undefined;
    // The position index is the last column, read into a buffer of its own: kdbush takes its
    // index as a whole ArrayBuffer, and a copy out of the file's bytes would leave 3.6 MB held twice.
    const positions = header.columns.positions;
    if (positions === undefined || positions.type !== 'Uint8Array') throw broken('no Uint8Array positions');
    const columnsStart = aligned(headerEnd);
    // Not pooled, so its bytes start a buffer of their own, at a multiple of ALIGN as views need.
    columns = Buffer.allocUnsafeSlow(positions.at);
    tree = new ArrayBuffer(positions.length);
    if (!(await readAt(columns, columnsStart)) || !(await readAt(new Uint8Array(tree), columnsStart + positions.at)))
      throw broken('positions lies outside it');
  } finally {
    await handle.close();
  }
  const column = <T extends ColumnType>(
    name: string,
    type: T,
    length: number,
  ): InstanceType<(typeof COLUMN_TYPES)[T]> => {
    const placed = header.columns[name];
    if (placed === undefined || placed.type !== type) throw broken(`no ${type} ${name}`);
    if (placed.length !== length) throw broken(`${name} holds ${placed.length} entries, not ${length}`);
    const Type = COLUMN_TYPES[type];
    if (placed.at % ALIGN !== 0 || placed.at + placed.length * Type.BYTES_PER_ELEMENT > columns.length)
      throw broken(`${name} lies outside it`);
    return new Type(columns.buffer, columns.byteOffset + placed.at, placed.length) as InstanceType<
      (typeof COLUMN_TYPES)[T]
    >;
  };
  const lengthOf = (name: string) => header.columns[name]?.length ?? -1;
  const text = (name: string) => {
    const bytesOf = column(name, 'Uint8Array', lengthOf(name));
    return Buffer.from(bytesOf.buffer, bytesOf.byteOffset, bytesOf.length);
  };
  const { count, alternates: alternatesCount, strings } = header;
  const chains = (name: string, heads: number) => ({
    heads: column(`${name}.heads`, 'Int32Array', heads),
    next: column(`${name}.next`, 'Int32Array', count),
  });

  const table: PlaceTable = {
    count,
    nameBytes: text('table.nameBytes'),
    nameStart: column('table.nameStart', 'Uint32Array', count + 1),
    countries: column('table.countries', 'Uint16Array', count),
    admin1: column('table.admin1', 'Uint16Array', count),
    admin1Names: strings.admin1Names,
    admin1Codes: strings.admin1Codes,
    geonamesIds: column('table.geonamesIds', 'Uint32Array', count),
    latE5: column('table.latE5', 'Int32Array', count),
    lonE5: column('table.lonE5', 'Int32Array', count),
    population: column('table.population', 'Uint32Array', count),
  };
  const details: PlaceNames = {
    ranks: column('details.ranks', 'Uint8Array', count),
    admin2: column('details.admin2', 'Uint16Array', count),
    admin2Names: strings.admin2Names,
    timeZones: column('details.timeZones', 'Uint16Array', count),
    timeZoneNames: strings.timeZoneNames,
    otherNamesAt: column('details.otherNamesAt', 'Uint32Array', count),
    otherNamesLength: column('details.otherNamesLength', 'Uint16Array', count),
    file: cities500,
    alternates: {
      count: alternatesCount,
      keyBytes: text('alternates.keyBytes'),
      keyStart: column('alternates.keyStart', 'Uint32Array', alternatesCount + 1),
      place: column('alternates.place', 'Uint32Array', alternatesCount),
      heads: column('alternates.heads', 'Int32Array', lengthOf('alternates.heads')),
      next: column('alternates.next', 'Int32Array', alternatesCount),
    },
  };
  const names: NameIndex = {
    keyBytes: text('names.keyBytes'),
    keyStart: column('names.keyStart', 'Uint32Array', count + 1),
    byKey: chains('names.byKey', lengthOf('names.byKey.heads')),
    byPrefix: chains('names.byPrefix', lengthOf('names.byPrefix.heads')),
    byLongPrefix: chains('names.byLongPrefix', lengthOf('names.byLongPrefix.heads')),
    byFirstByte: chains('names.byFirstByte', 2 ** 8),
    byFirstTwoBytes: chains('names.byFirstTwoBytes', 2 ** 16),
  };
  const positions = KDBush.from(tree);
  if (positions.numItems !== count) throw broken(`its position index holds ${positions.numItems} places, not ${count}`);
  return { table, details, names: () => names, positions: () => positions };
}
