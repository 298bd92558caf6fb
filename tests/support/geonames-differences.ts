import type { GeoNames } from '../../src/families/location/adapters/geonames/geonames-data.js';

type Columns = Uint8Array | Uint16Array | Int32Array | Uint32Array;

/**
 * Every value of the data by its path (`table.latE5`, `names.byKey.heads`, `positions`), its
 * indexes included: typed arrays as their type and bytes, the rest as JSON.
 */
function valuesOf(data: GeoNames): Map<string, string | Buffer> {
  const values = new Map<string, string | Buffer>();
  const walk = (path: string, value: unknown): void => {
    if (ArrayBuffer.isView(value)) {
      const column = value as Columns;
      values.set(
        `${path} (${column.constructor.name === 'Buffer' ? 'Uint8Array' : column.constructor.name})`,
        Buffer.from(column.buffer, column.byteOffset, column.byteLength),
      );
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value))
      for (const [key, inner] of Object.entries(value)) walk(`${path}.${key}`, inner);
    else values.set(path, JSON.stringify(value));
  };
  walk('table', data.table);
  walk('details', data.details);
  walk('names', data.names());
  walk('positions', new Uint8Array(data.positions().data));
  return values;
}

/** The paths at which two versions of the data differ (see valuesOf); none when they hold the same. */
export function differencesBetween(actual: GeoNames, expected: GeoNames): string[] {
  const left = valuesOf(actual);
  const right = valuesOf(expected);
  const paths = new Set([...left.keys(), ...right.keys()]);
  return [...paths].filter((path) => {
    const [a, b] = [left.get(path), right.get(path)];
    return a === undefined || b === undefined || (Buffer.isBuffer(a) && Buffer.isBuffer(b) ? !a.equals(b) : a !== b);
  });
}
