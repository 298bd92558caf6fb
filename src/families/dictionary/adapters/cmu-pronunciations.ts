import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadOnce } from '../../../platform/caching/load-once.js';
import type { PronouncingDictionary } from '../domain/ports.js';

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const CLOSE_PARENTHESIS = 0x29;
/** Each entry is a line `  "word": "ARPABET",`, a variant's word followed by `(2)`, `(3)`... */
const ENTRY_START = '  "';
const PRONUNCIATION_START = '": "';

/**
 * The CMU Pronouncing Dictionary (134,000 words of General American) from the
 * `cmu-pronouncing-dictionary` package, whose module is one object literal: importing it costs
 * 60 MB and 0.7 s, so its file is read as text instead (5 MB kept as bytes, and where each word's
 * lines start, sorted, for a binary search). A word's variants follow it in the file.
 */
export class CmuPronunciations implements PronouncingDictionary {
  private readonly table = loadOnce(() => this.load());

  constructor(private readonly file?: string) {}

  async pronunciationsOf(word: string): Promise<readonly string[]> {
    const { text, wordStarts } = await this.table();
    let low = 0;
    let high = wordStarts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const comparison = compareWord(word, text, wordStarts[middle]!);
      if (comparison === 0) return variantsAt(text, wordStarts[middle]!);
      if (comparison < 0) high = middle;
      else low = middle + 1;
    }
    return [];
  }

  private async load(): Promise<{ text: Buffer; wordStarts: Uint32Array }> {
    const text = await readFile(this.file ?? createRequire(import.meta.url).resolve('cmu-pronouncing-dictionary'));
    const starts: number[] = [];
    for (let at = 0; at < text.length; at = nextLine(text, at)) {
      if (!startsEntry(text, at)) continue;
      const keyEnd = text.indexOf(QUOTE, at + ENTRY_START.length);
      // Only a variant's key ends in "(n)": its word's line came just before it.
      if (text[keyEnd - 1] !== CLOSE_PARENTHESIS) starts.push(at);
    }
    // Nearly sorted already (two words are out of place), so the sort costs about one comparison a word.
    starts.sort((a, b) => compareKeys(text, a, b));
    return { text, wordStarts: Uint32Array.from(starts) };
  }
}

function nextLine(text: Buffer, at: number): number {
  const end = text.indexOf(NEWLINE, at);
  return end === -1 ? text.length : end + 1;
}

const startsEntry = (text: Buffer, at: number): boolean =>
  text[at] === 0x20 && text[at + 1] === 0x20 && text[at + 2] === QUOTE;

/** The byte of a key at `i`, a quote once it has ended (the key's end sorts before any letter). */
const keyByte = (text: Buffer, lineStart: number, i: number): number => text[lineStart + ENTRY_START.length + i]!;

/**
 * A word against a line's key, by character codes rather than the word's UTF-8 bytes (which would
 * be a buffer more a lookup): the file is ASCII, and a character beyond it sorts after every ASCII
 * byte either way.
 */
function compareWord(word: string, text: Buffer, lineStart: number): number {
  for (let i = 0; ; i++) {
    const ours = i < word.length ? word.charCodeAt(i) : QUOTE;
    const theirs = keyByte(text, lineStart, i);
    if (ours !== theirs) return ours - theirs;
    if (ours === QUOTE) return 0;
  }
}

function compareKeys(text: Buffer, a: number, b: number): number {
  for (let i = 0; ; i++) {
    const ours = keyByte(text, a, i);
    const theirs = keyByte(text, b, i);
    if (ours !== theirs) return ours - theirs;
    if (ours === QUOTE) return 0;
  }
}

/** The pronunciations on the word's line and its variants' lines, without the comments some carry (`# place, danish`). */
function variantsAt(text: Buffer, lineStart: number): string[] {
  const word = text.toString(
    'latin1',
    lineStart + ENTRY_START.length,
    text.indexOf(QUOTE, lineStart + ENTRY_START.length),
  );
  const pronunciations: string[] = [];
  for (let at = lineStart; at < text.length && startsEntry(text, at); at = nextLine(text, at)) {
    const line = text.toString('latin1', at, nextLine(text, at)).trim();
    const keyEnd = line.indexOf(PRONUNCIATION_START);
    const key = line.slice(1, keyEnd);
    if (at !== lineStart && !(key.startsWith(`${word}(`) && key.endsWith(')'))) break;
    const written = line.slice(keyEnd + PRONUNCIATION_START.length, line.lastIndexOf('"'));
    pronunciations.push(written.split('#')[0]!.trim());
  }
  return pronunciations;
}
