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
export const trimWhiteSpace = (text: string): string => text.replace(LEADING_WHITE_SPACE, '').replace(TRAILING_WHITE_SPACE, '');

/** What the rules above say is refused, for error details. */
export const CONTROL_OR_INVISIBLE_RULE = 'control characters or invisible formatting characters (zero-width, bidirectional)';

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
