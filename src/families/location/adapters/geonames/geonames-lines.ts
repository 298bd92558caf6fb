/**
 * Fields of GeoNames' tab-separated lines (cities500.txt, read a line at a time as bytes by
 * platform/files/each-line.ts), found with no string made of what a reader leaves out: the table's
 * loader and the places' details both read that file so.
 */
export const TAB = 0x09;

/**
 * Where each field of the line starts, into `starts`, up to field `last + 1` (so that field
 * `last` ends at `starts[last + 1] - 1`); the line's GeoNames id (its first field) is returned,
 * or -1 when the line is too short, does not start with one, or `wanted` refuses the id, which is
 * asked before the fields are looked for (most lines of a pass are skipped so, at a tenth of the cost).
 */
export function splitLine(
  bytes: Buffer,
  from: number,
  to: number,
  starts: Int32Array,
  last: number,
  wanted: (geonamesId: number) => boolean,
): number {
  let geonamesId = 0;
  let at = from;
  for (; at < to && bytes[at]! >= 0x30 && bytes[at]! <= 0x39; at++) geonamesId = geonamesId * 10 + (bytes[at]! - 0x30);
  if (at === from || bytes[at] !== TAB || !wanted(geonamesId)) return -1;
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
