import { readSync } from 'node:fs';

/**
 * Reading WordNet's database files as described in its wndb(5) page: synsets read at their byte
 * offsets (the offsets come from `index.sense`, see sense-index.ts), and the exception lists.
 */

const NEWLINE = 0x0a;

export interface Pointer {
  readonly symbol: string;
  readonly offset: number;
  /** n, v, a, s or r: which data file the target is in. */
  readonly partOfSpeech: string;
  /** The word numbers the pointer joins (1-based); 0 and 0 for a pointer between whole synsets. */
  readonly source: number;
  readonly target: number;
}

/** Adjectives may carry their syntactic position: `galore(ip)`, `elect(p)`, `former(a)`. */
const POSITION_MARKER = /\((?:a|p|ip)\)$/;

function displayForm(field: string): string {
  const word = field.endsWith(')') ? field.replace(POSITION_MARKER, '') : field;
  return word.includes('_') ? word.replaceAll('_', ' ') : word;
}

/**
 * Bytes read first: 98.6% of WordNet 3.1's synset lines are shorter (87% under 256), and every
 * byte read is a byte copied out of the page cache. A longer line is read again, twice as far.
 */
const FIRST_READ_BYTES = 512;

/**
 * A data file read line by line at the byte offsets the index gives. The data files are 22 MB
 * that a lookup touches a few hundred bytes of, so they stay on disk (in the page cache, once
 * read) rather than in this process's memory; a read is one system call.
 */
export class DataFile {
  private buffer = Buffer.allocUnsafe(FIRST_READ_BYTES);

  constructor(private readonly fd: number) {}

  lineAt(offset: number): string {
    for (let length = FIRST_READ_BYTES; ; length *= 2) {
      if (this.buffer.length < length) this.buffer = Buffer.allocUnsafe(length);
      const read = readSync(this.fd, this.buffer, 0, length, offset);
      const newline = this.buffer.subarray(0, read).indexOf(NEWLINE);
      if (newline !== -1) return this.buffer.toString('latin1', 0, newline);
      if (read < length) return this.buffer.toString('latin1', 0, read);
    }
  }
}

/**
 * One synset's line of a data file: `offset lex_filenum ss_type w_cnt word lex_id [word lex_id...]
 * p_cnt [ptr...] [frames...] | gloss`, w_cnt in hexadecimal. The words are read at once; the
 * pointers (a head adjective's run to kilobytes) and the gloss only when asked for.
 */
export class Synset {
  /** Its byte offset in its data file, which names it. */
  readonly offset: number;
  /** n, v, a, s (adjective satellite) or r. */
  readonly type: string;
  /** As the file spells them, with spaces for underscores and without adjective position markers. */
  readonly words: readonly string[];
  private readonly line: string;
  private readonly pointersStart: number;
  private readonly barAt: number;

  constructor(line: string) {
    const bar = line.indexOf(' | ');
    this.barAt = bar === -1 ? line.length : bar;
    // Fields: offset, lexicographer file, type, word count, then a word and its lex id per word.
    const afterOffset = line.indexOf(' ') + 1;
    const typeStart = line.indexOf(' ', afterOffset) + 1;
    const countStart = line.indexOf(' ', typeStart) + 1;
    let at = line.indexOf(' ', countStart) + 1;
    this.offset = Number(line.slice(0, afterOffset - 1));
    this.type = line.slice(typeStart, countStart - 1);
    const wordCount = parseInt(line.slice(countStart, at - 1), 16);
    const words: string[] = [];
    for (let i = 0; i < wordCount; i++) {
      const space = line.indexOf(' ', at);
      words.push(displayForm(line.slice(at, space)));
      at = line.indexOf(' ', space + 1) + 1;
    }
    this.words = words;
    this.line = line;
    this.pointersStart = at;
  }

  get gloss(): string {
    return this.line.slice(this.barAt + 3).trim();
  }

  /**
   * The pointers with the given symbol (`!` antonym, `&` similar to, ...): each is `symbol
   * offset pos source/target`, with an 8-digit offset, so they are found by searching the
   * pointer fields for the symbol standing alone rather than splitting them all.
   */
  pointers(symbol: string): Pointer[] {
    const needle = ` ${symbol} `;
    const pointers: Pointer[] = [];
    for (
      let at = this.line.indexOf(needle, this.pointersStart - 1);
      at !== -1 && at < this.barAt;
      at = this.line.indexOf(needle, at + needle.length)
    ) {
      const start = at + needle.length;
      pointers.push({
        symbol,
        offset: Number(this.line.slice(start, start + 8)),
        partOfSpeech: this.line.charAt(start + 9),
        source: parseInt(this.line.slice(start + 11, start + 13), 16),
        target: parseInt(this.line.slice(start + 13, start + 15), 16),
      });
    }
    return pointers;
  }
}

/** A gloss is the definition, then its examples in double quotes: `hot; "a hot stove"; "hot tea"`. */
export function splitGloss(gloss: string): { definition: string; examples: string[] } {
  const cut = gloss.startsWith('"') ? 0 : gloss.indexOf('; "');
  let definition = (cut === -1 ? gloss : gloss.slice(0, cut)).trim();
  if (definition.endsWith(';')) definition = definition.slice(0, -1).trimEnd();
  const examples: string[] = [];
  for (let open = cut === -1 ? -1 : gloss.indexOf('"', cut); open !== -1;) {
    const close = gloss.indexOf('"', open + 1);
    if (close === -1) break;
    const example = gloss.slice(open + 1, close).trim();
    if (example !== '') examples.push(example);
    open = gloss.indexOf('"', close + 1);
  }
  return { definition, examples };
}

/** An exception list: each irregular form (spaces for underscores) and its base forms. */
export function parseExceptions(text: string): Map<string, string[]> {
  const bases = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const [form, ...forms] = line
      .trim()
      .split(' ')
      .map((word) => word.replace(/_/g, ' '));
    if (form && forms.length > 0) bases.set(form, forms);
  }
  return bases;
}
