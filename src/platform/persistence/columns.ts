/** Conversions between SQL column values and domain values that differ by database. */

/** PostgreSQL returns BIGINT as a string; SQLite as a number. */
export const toNumber = (value: unknown): number => Number(value);
export const toNumberOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
/** SQLite has no boolean type and returns 0 / 1. */
export const toBoolean = (value: unknown): boolean => value === true || value === 1 || value === '1';
export const toStringList = (value: unknown): string[] => JSON.parse(String(value)) as string[];
export const fromStringList = (list: readonly string[]): string => JSON.stringify(list);
