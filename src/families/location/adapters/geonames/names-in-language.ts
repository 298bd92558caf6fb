import { open } from 'node:fs/promises';
import type { PlaceNames } from './place-names.js';

/**
 * GeoNames' other names carry no language (cities500.txt lists `München,Munich,Мюнхен,ミュンヘン,…`
 * as one list), so a name in a language is told by its script, for the languages a script names
 * alone: Korean by Hangul, Greek, Thai, Georgian and the Indic scripts by theirs. Japanese
 * is a name with kana, or in Han characters all of which Japanese writes (Shift_JIS holds them):
 * 東京, not the simplified 东京, which is Chinese's (GB 2312 holds it). English is GeoNames' own
 * name. The Latin and Cyrillic scripts serve many languages: a German or Russian name cannot be
 * told from the others, so those languages get none; nor does Hebrew, whose script GeoNames'
 * Yiddish names share (Moscow's first is מאסקווע, not מוסקבה).
 */
const SCRIPT_OF_LANGUAGE: Readonly<Record<string, string>> = {
  ko: 'Hangul',
  el: 'Greek',
  hy: 'Armenian',
  ka: 'Georgian',
  th: 'Thai',
  lo: 'Lao',
  km: 'Khmer',
  my: 'Myanmar',
  am: 'Ethiopic',
  si: 'Sinhala',
  hi: 'Devanagari',
  bn: 'Bengali',
  pa: 'Gurmukhi',
  gu: 'Gujarati',
  ta: 'Tamil',
  te: 'Telugu',
  kn: 'Kannada',
  ml: 'Malayalam',
  bo: 'Tibetan',
};

const writtenIn = (script: string) =>
  new RegExp(`^(?=.*\\p{Script=${script}})[\\p{Script=${script}}\\p{M}\\p{Zs}\\p{P}]+$`, 'u');
const matchers = new Map(Object.entries(SCRIPT_OF_LANGUAGE).map(([lang, script]) => [lang, writtenIn(script)]));
/** Marathi shares Devanagari with Hindi; its candra e (पॅरिस) is not Hindi's spelling (पेरिस). */
const MARATHI = /[\u0945\u0972]/u;
const HAN_ONLY = /^[\p{Script=Han}\u3005]+$/u;
/** Kana with or without Han, the long-vowel mark ー, the iteration mark 々 and the middle dot ・. */
const WITH_KANA =
  /^(?=.*[\p{Script=Hiragana}\p{Script=Katakana}])[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005\u30fb\p{Zs}]+$/u;

let japaneseHan: ReadonlySet<string> | undefined;
let chineseHan: ReadonlySet<string> | undefined;

/** The characters a legacy double-byte encoding holds, read back through Node's own decoder. */
function charactersOf(encoding: string, leads: [number, number], trails: [number, number]): Set<string> {
  const decoder = new TextDecoder(encoding);
  const characters = new Set<string>();
  for (let lead = leads[0]; lead <= leads[1]; lead++)
    for (let trail = trails[0]; trail <= trails[1]; trail++)
      characters.add(decoder.decode(new Uint8Array([lead, trail])));
  return characters;
}

const allIn = (characters: ReadonlySet<string>, name: string): boolean =>
  [...name].every((character) => characters.has(character));

/** Shift_JIS's kanji rows (JIS X 0208 levels 1 and 2). */
const isJapaneseHan = (name: string): boolean => {
  japaneseHan ??= new Set([
    ...charactersOf('shift_jis', [0x88, 0x9f], [0x40, 0xfc]),
    ...charactersOf('shift_jis', [0xe0, 0xea], [0x40, 0xfc]),
  ]);
  return HAN_ONLY.test(name) && allIn(japaneseHan, name);
};
/** GB 2312's hanzi rows, the simplified characters of mainland Chinese. */
const isChineseHan = (name: string): boolean => {
  chineseHan ??= charactersOf('gb2312', [0xb0, 0xf7], [0xa1, 0xfe]);
  return HAN_ONLY.test(name) && allIn(chineseHan, name);
};

/** Whether the data can tell names in this language from the others (see above). */
export const languageIsTold = (lang: string): boolean =>
  lang === 'en' || lang === 'ja' || lang === 'zh' || matchers.has(lang);

function pick(names: readonly string[], lang: string, country: string): string | null {
  const first = (test: (name: string) => boolean) => names.find(test) ?? null;
  if (lang === 'zh') return first(isChineseHan);
  if (lang === 'ja')
    return country === 'JP'
      ? (first(isJapaneseHan) ?? first((name) => WITH_KANA.test(name)))
      : (first((name) => WITH_KANA.test(name)) ?? first(isJapaneseHan));
  const matcher = matchers.get(lang);
  if (lang === 'hi') return first((name) => matcher!.test(name) && !MARATHI.test(name));
  return matcher ? first((name) => matcher.test(name)) : null;
}

export interface NamedPlace {
  readonly id: number;
  readonly name: string;
  readonly country: string;
}

/** Each place's name in `lang`, or null where the data has none; the other names are read from the file, one read per place. */
export async function namesInLanguage(
  details: PlaceNames,
  places: readonly NamedPlace[],
  lang: string,
): Promise<(string | null)[]> {
  if (lang === 'en') return places.map((place) => place.name);
  if (!languageIsTold(lang) || places.length === 0) return places.map(() => null);
  const file = await open(details.file, 'r');
  try {
    const found: (string | null)[] = [];
    for (const { id, country } of places) {
      const length = details.otherNamesLength[id]!;
      if (length === 0) {
        found.push(null);
        continue;
      }
      const bytes = Buffer.allocUnsafe(length);
      const { bytesRead } = await file.read(bytes, 0, length, details.otherNamesAt[id]!);
      found.push(pick(bytes.toString('utf8', 0, bytesRead).split(','), lang, country));
    }
    return found;
  } finally {
    await file.close();
  }
}
