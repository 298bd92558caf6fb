import { characterCount, foldUndecomposedLetters } from '../../../domain/text.js';
import type { ContentEntry } from './content.js';

/**
 * What a listing matches an entry by, computed once here so that every store compares the same
 * strings and none relies on its own collation or case folding (SQLite's LIKE folds ASCII only,
 * PostgreSQL's not at all).
 */
export interface SearchKeys {
  /** The author folded (`foldedForSearch`) with white space runs as one space; null without one. */
  readonly authorKey: string | null;
  /** The folded words of the text, each between single spaces (` cats purr `), so a word matches as `% word %`. */
  readonly words: string;
  /** The text's length in characters (code points), as the length filters count it. */
  readonly length: number;
}

/** Compatibility forms unfolded, accents dropped, lower-case: "Café" and "CAFE" read the same. */
export const foldedForSearch = (text: string): string =>
  foldUndecomposedLetters(
    text
      .normalize('NFKD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase(),
  );

/** The words of a text as a search finds them: folded, split at anything but letters and digits. */
export const wordsOf = (text: string): string[] =>
  foldedForSearch(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');

/** An author as the `author` filter compares it. */
export const authorKeyOf = (author: string): string => foldedForSearch(author).replace(/\s+/gu, ' ').trim();

export const searchKeysOf = (entry: Pick<ContentEntry, 'text' | 'author'>): SearchKeys => {
  const words = wordsOf(entry.text);
  return {
    authorKey: entry.author === null ? null : authorKeyOf(entry.author),
    words: words.length === 0 ? ' ' : ` ${words.join(' ')} `,
    length: characterCount(entry.text),
  };
};
