/**
 * Characters that are never part of a name, a label, an email address, a password, a place or a
 * word: control characters (C0, DEL, C1), and the invisible formatting characters that make text
 * read differently from what it holds: zero-width space, joiners and direction marks
 * (U+200B–U+200F), bidirectional embeddings and overrides (U+202A–U+202E), bidirectional isolates
 * (U+2066–U+2069) and the zero-width no-break space (U+FEFF). "admin\u202Egpj.exe" would show as
 * something it is not.
 */
const CONTROL_OR_INVISIBLE_FORMATTING = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u;

export const hasControlOrInvisibleCharacter = (text: string): boolean => CONTROL_OR_INVISIBLE_FORMATTING.test(text);

const LEADING_WHITE_SPACE = /^(?:(?!\uFEFF)\s)+/u;
const TRAILING_WHITE_SPACE = /(?:(?!\uFEFF)\s)+$/u;

/**
 * `text` without the white space around it, as `String.prototype.trim` would, except U+FEFF,
 * which trim() takes for white space: trimmed away, it would be input silently changed instead
 * of input refused.
 */
export const trimWhiteSpace = (text: string): string =>
  text.replace(LEADING_WHITE_SPACE, '').replace(TRAILING_WHITE_SPACE, '');

/** What the rules above say is refused, for error details. */
export const CONTROL_OR_INVISIBLE_RULE =
  'control characters or invisible formatting characters (zero-width, bidirectional)';

/**
 * How many characters a person counts in `text`: Unicode code points, so that an emoji, which
 * JavaScript stores as two UTF-16 units, counts as one.
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) continue;
    const next = text.charCodeAt(i + 1);
    // A high surrogate followed by a low one is a pair: one character in two units.
    if (next >= 0xdc00 && next <= 0xdfff) {
      count--;
      i++;
    }
  }
  return count;
}

/**
 * A character XML 1.0 cannot carry, even escaped (its `Char` production): C0 controls but tab,
 * line feed and carriage return; U+FFFE and U+FFFF; and a surrogate without its other half.
 * Text shown as XML (facts and quotes, `?type=xml`) must not hold one, or no reader would parse
 * the answer: such text is refused where it is stored.
 */
// Every character but those of the production; with the `u` flag a pair of surrogates is one character, a lone one a character of its own.
const XML_CANNOT_CARRY = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** What the rule above refuses, for error details. */
export const XML_CANNOT_CARRY_RULE =
  'characters XML cannot carry (control characters other than tab and line breaks, U+FFFE, U+FFFF, lone surrogates)';

/** Where in `text` the first character XML cannot carry is (a UTF-16 index), or undefined. */
export const firstCharacterXmlCannotCarry = (text: string): number | undefined => {
  const found = XML_CANNOT_CARRY.exec(text);
  return found === null ? undefined : found.index;
};

/** A character as `U+0007`, for a person reading an error. */
export const codePointOf = (character: string): string =>
  `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** A place in a text as an editor shows it: lines from 1 (after each line feed), columns from 1 in characters. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** The line and column of the UTF-16 index `at` of `text`. */
export function positionOf(text: string, at: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let newline = text.indexOf('\n'); newline !== -1 && newline < at; newline = text.indexOf('\n', newline + 1)) {
    line++;
    lineStart = newline + 1;
  }
  return { line, column: characterCount(text.slice(lineStart, at)) + 1 };
}

/** Throws on bytes that are not UTF-8, overlong forms and encoded surrogates included. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The text bytes decode to, or undefined when they are not UTF-8. */
export function strictlyDecoded(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Where the first bytes that are not UTF-8 begin, as the line and column of the text before
 * them, or undefined when all of `bytes` is UTF-8 (`strictlyDecoded` gives it).
 */
export function firstBadUtf8Position(bytes: Uint8Array): TextPosition | undefined {
  const offset = firstBadUtf8Offset(bytes);
  if (offset === undefined) return undefined;
  const before = strictUtf8.decode(bytes.subarray(0, offset));
  return positionOf(before, before.length);
}

/** UTF-8 as RFC 3629 has it: the shortest form only, nothing beyond U+10FFFF, no surrogates. */
function firstBadUtf8Offset(bytes: Uint8Array): number | undefined {
  for (let at = 0; at < bytes.length;) {
    const lead = bytes[at]!;
    if (lead < 0x80) {
      at++;
      continue;
    }
    const length =
      lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || at + length > bytes.length) return at;
    let codePoint = lead & (0x7f >> length);
    for (let next = at + 1; next < at + length; next++) {
      if ((bytes[next]! & 0xc0) !== 0x80) return at;
      codePoint = (codePoint << 6) | (bytes[next]! & 0x3f);
    }
    const shortest = length === 2 || (length === 3 ? codePoint >= 0x800 : codePoint >= 0x10000);
    if (!shortest || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return at;
    at += length;
  }
  return undefined;
}

/** Lower-case letters that Unicode does not decompose into a base letter and a mark, as people spell them without it. */
const UNDECOMPOSED_LETTERS_SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ı: 'i',
  þ: 'th',
  ħ: 'h',
};
/** The letters `foldUndecomposedLetters` spells out. */
export const UNDECOMPOSED_LETTERS: readonly string[] = Object.keys(UNDECOMPOSED_LETTERS_SPELLED);
const UNDECOMPOSED = new RegExp(`[${UNDECOMPOSED_LETTERS.join('')}]`, 'g');

/**
 * Lower-case text with its undecomposable letters spelled as people type them without the
 * special key ("søren" → "soren", "straße" → "strasse"): what a search that drops accents must
 * also do, since these letters carry no mark to drop.
 */
export const foldUndecomposedLetters = (lowerCase: string): string =>
  lowerCase.replace(UNDECOMPOSED, (letter) => UNDECOMPOSED_LETTERS_SPELLED[letter] ?? letter);
