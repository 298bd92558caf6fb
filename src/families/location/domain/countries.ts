import { placeNameKey } from './places.js';

/** Region codes Intl knows that are not countries of the gazetteer. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'ZZ', 'QO', 'XA', 'XB']);

/** Names people commonly write that differ from Intl's English display names. */
const ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  holland: 'NL',
  'ivory coast': 'CI',
  'czech republic': 'CZ',
  russia: 'RU',
  'south korea': 'KR',
  'north korea': 'KP',
};

let countryByKey: ReadonlyMap<string, string> | undefined;

/** English names of every ISO region, built once from Node's ICU data (no file, no network). */
function countriesByKey(): ReadonlyMap<string, string> {
  if (countryByKey) return countryByKey;
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const byKey = new Map<string, string>();
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const first of letters) {
    for (const second of letters) {
      const code = first + second;
      // Retired codes (FX, UK, BU, ...) share a name with, or stand for, their current code.
      const current = canonicalRegion(code);
      if (current === undefined || NOT_COUNTRIES.has(current)) continue;
      const name = display.of(current);
      if (name === undefined || name === current) continue;
      byKey.set(code.toLowerCase(), current);
      byKey.set(placeNameKey(name), current);
      // "Myanmar (Burma)" is also just "Myanmar".
      byKey.set(placeNameKey(name.replace(/\s*\(.*\)$/, '')), current);
    }
  }
  for (const [alias, code] of Object.entries(ALIASES)) byKey.set(alias, code);
  countryByKey = byKey;
  return byKey;
}

function canonicalRegion(code: string): string | undefined {
  try {
    const region = Intl.getCanonicalLocales(`und-${code}`)[0]?.slice('und-'.length);
    return region !== undefined && /^[A-Z]{2}$/.test(region) ? region : undefined;
  } catch {
    return undefined;
  }
}

/** The ISO alpha-2 code of a country given by code ("fr", "FR") or English name ("France"). */
export function countryCodeOf(text: string): string | undefined {
  return countriesByKey().get(placeNameKey(text));
}

let englishNames: Intl.DisplayNames | undefined;
/**
 * Names already asked of Intl, by code: `DisplayNames.of` asks ICU each time (about 1 µs, and a
 * search answers up to ten places, each with its country): in bench:utilities' profile of place
 * searches it took more time than the name index. There are fewer than 300 codes.
 */
const namesByCode = new Map<string, string>();

/** The English name of a country by its ISO alpha-2 code ("FR" → "France"); the code itself when Intl knows no name. */
export function countryNameOf(code: string): string {
  if (code === '') return '';
  let name = namesByCode.get(code);
  if (name === undefined) {
    englishNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    name = englishNames.of(code) ?? code;
    // Codes come from the data and from callers: only well-formed ones are kept, so the map stays small.
    if (/^[A-Z]{2}$/.test(code)) namesByCode.set(code, name);
  }
  return name;
}
