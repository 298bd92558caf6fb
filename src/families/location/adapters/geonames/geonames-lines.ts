/**
 * Fields of GeoNames' tab-separated lines (cities500.txt, read a line at a time as bytes by
 * platform/files/each-line.ts), found with no string made of what a reader leaves out: see
 * geonames-data.ts, which reads that file once for the smaller places and every place's details.
 */
export const TAB = 0x09;

/** Field numbers of a line of cities500.txt (GeoNames' "geoname" table), tab-separated. */
export const FIELD = {
  name: 1,
  asciiName: 2,
  alternateNames: 3,
  lat: 4,
  lon: 5,
  featureClass: 6,
  featureCode: 7,
  country: 8,
  admin1: 10,
  admin2: 11,
  population: 14,
  timeZone: 17,
} as const;

/**
 * Where each field of the line starts, into `starts`, up to field `last + 1` (so that field
 * `last` ends at `starts[last + 1] - 1`); the line's GeoNames id (its first field) is returned,
 * or -1 when the line is too short or does not start with one.
 */
export function splitLine(bytes: Buffer, from: number, to: number, starts: Int32Array, last: number): number {
  let geonamesId = 0;
  let at = from;
  for (; at < to && bytes[at]! >= 0x30 && bytes[at]! <= 0x39; at++) geonamesId = geonamesId * 10 + (bytes[at]! - 0x30);
  if (at === from || bytes[at] !== TAB) return -1;
  starts[0] = from;
  for (let field = 1; field <= last + 1; field++) {
    const tab = bytes.indexOf(TAB, starts[field - 1]!);
    if (tab === -1 || tab >= to) return -1;
    starts[field] = tab + 1;
  }
  return geonamesId;
}

/** The index of `value` in `sorted` (ascending), or -1. */
export function indexIn(sorted: Uint32Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = sorted[middle]!;
    if (found === value) return middle;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
