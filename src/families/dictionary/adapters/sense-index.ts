import type { PartOfSpeech } from '../domain/sense.js';
import { distanceWithin, editsBetweenMasks, letterMasks } from '../domain/spelling-distance.js';
import { compareWithLine, nextLine } from './wordnet-files.js';

const PERCENT = 0x25;
const SPACE = 0x20;
const NEWLINE = 0x0a;

/** The synset type digit of a sense key (`run%2:38:00::`) for each part of speech; 5 is a satellite adjective. */
const SENSE_KEY_TYPES: { readonly [P in PartOfSpeech]: readonly number[] } = {
  noun: [0x31],
  verb: [0x32],
  adjective: [0x33, 0x35],
  adverb: [0x34],
};

/**
 * WordNet's `index.sense`: a line per sense of every lemma, `lemma%type:file:id:head:headId
 * offset senseNumber tagCount`, sorted by its key, so a lemma's senses are neighbours. The tag
 * count is how often the sense was found in the semantic concordance's texts: what orders senses
 * across parts of speech, and, summed per lemma, how much a lemma is used.
 *
 * Kept as the file's bytes (7 MB) and, per distinct lemma (about 148,000), where its lines
 * start, its length, its summed count and its letters' masks: typed arrays of 3 MB with no object
 * per lemma, read in place by a binary search or, for spelling suggestions, a scan of the lemmas
 * of about the length asked (their numbers sorted by length).
 */
export class SenseIndex {
  private readonly lemmaLines: Uint32Array;
  private readonly lemmaLengths: Uint8Array;
  private readonly lemmaCounts: Uint32Array;
  private readonly lemmaOnce: Int32Array;
  private readonly lemmaTwice: Int32Array;
  /** Lemma numbers by length; those of length n from `byLengthStarts[n]` to `byLengthStarts[n + 1]`. */
  private readonly byLength: Uint32Array;
  private readonly byLengthStarts: Uint32Array;
  /** Where the lemmas' lines start; one more at the end, the file's length. */
  private readonly lemmaCount: number;

  constructor(private readonly file: Buffer) {
    let lines = 0;
    for (let at = file.indexOf(NEWLINE); at !== -1; at = file.indexOf(NEWLINE, at + 1)) lines += 1;
    const starts = new Uint32Array(lines + 2);
    const lengths = new Uint8Array(lines + 1);
    const counts = new Uint32Array(lines + 1);
    const once = new Int32Array(lines + 1);
    const twice = new Int32Array(lines + 1);
    let lemmas = 0;
    let previousStart = -1;
    let previousLength = -1;
    for (let at = 0; at < file.length; at = nextLine(file, at)) {
      const percent = file.indexOf(PERCENT, at);
      const lineEnd = file.indexOf(NEWLINE, at);
      const length = percent - at;
      const sameLemma =
        length === previousLength && file.compare(file, previousStart, previousStart + length, at, percent) === 0;
      if (!sameLemma) {
        starts[lemmas] = at;
        lengths[lemmas] = Math.min(length, 255);
        ({ once: once[lemmas], twice: twice[lemmas] } = letterMasks(file, at, length));
        lemmas += 1;
        previousStart = at;
        previousLength = length;
      }
      const lastSpace = file.lastIndexOf(SPACE, lineEnd === -1 ? file.length : lineEnd);
      counts[lemmas - 1]! += Number(file.toString('latin1', lastSpace + 1, lineEnd === -1 ? file.length : lineEnd));
    }
    starts[lemmas] = file.length;
    this.lemmaLines = starts.slice(0, lemmas + 1);
    this.lemmaLengths = lengths.slice(0, lemmas);
    this.lemmaCounts = counts.slice(0, lemmas);
    this.lemmaOnce = once.slice(0, lemmas);
    this.lemmaTwice = twice.slice(0, lemmas);
    this.lemmaCount = lemmas;
    this.byLengthStarts = new Uint32Array(257);
    for (const length of this.lemmaLengths) this.byLengthStarts[length + 1]! += 1;
    for (let length = 1; length <= 256; length++) this.byLengthStarts[length]! += this.byLengthStarts[length - 1]!;
    this.byLength = new Uint32Array(lemmas);
    const filled = this.byLengthStarts.slice(0, 256);
    for (let lemma = 0; lemma < lemmas; lemma++) this.byLength[filled[this.lemmaLengths[lemma]!]!++] = lemma;
  }

  /** The tag count of each of a lemma's senses in one part of speech, by its synset's offset. */
  tagCounts(lemma: string, partOfSpeech: PartOfSpeech): Map<number, number> {
    const counts = new Map<number, number>();
    const found = this.lemmaNumber(Buffer.from(lemma.replaceAll(' ', '_'), 'utf8'));
    if (found === -1) return counts;
    const types = SENSE_KEY_TYPES[partOfSpeech];
    const end = this.lemmaLines[found + 1]!;
    for (let at = this.lemmaLines[found]!; at < end; at = nextLine(this.file, at)) {
      const percent = this.file.indexOf(PERCENT, at);
      if (!types.includes(this.file[percent + 1]!)) continue;
      const [, offset, , tagCount] = this.file.toString('latin1', at, this.file.indexOf(NEWLINE, at)).split(' ');
      counts.set(Number(offset), Number(tagCount));
    }
    return counts;
  }

  /**
   * The lemmas within `maxDistance` edits of `word`, closest first, then the most used, then
   * alphabetically; at most `limit`. A scan of every lemma whose length and letters could be
   * that close: a few hundred of them get a distance table.
   */
  nearLemmas(word: string, maxDistance: number, limit: number): string[] {
    const key = Buffer.from(word.replaceAll(' ', '_'), 'utf8');
    const { once, twice } = letterMasks(key);
    const near: { lemma: number; distance: number }[] = [];
    const shortest = Math.max(key.length - maxDistance, 0);
    const longest = Math.min(key.length + maxDistance, 255);
    for (let at = this.byLengthStarts[shortest]!; at < this.byLengthStarts[longest + 1]!; at++) {
      const lemma = this.byLength[at]!;
      if (editsBetweenMasks(once, twice, this.lemmaOnce[lemma]!, this.lemmaTwice[lemma]!) > maxDistance) continue;
      const distance = distanceWithin(this.file, this.lemmaLines[lemma]!, this.lemmaLengths[lemma]!, key, maxDistance);
      if (distance <= maxDistance) near.push({ lemma, distance });
    }
    return near
      .sort(
        (a, b) =>
          a.distance - b.distance || this.lemmaCounts[b.lemma]! - this.lemmaCounts[a.lemma]! || a.lemma - b.lemma,
      )
      .slice(0, limit)
      .map(({ lemma }) => {
        const start = this.lemmaLines[lemma]!;
        return this.file.toString('utf8', start, start + this.lemmaLengths[lemma]!).replaceAll('_', ' ');
      });
  }

  /** The lemma's number, by a binary search of the lemmas' first lines; -1 when absent. */
  private lemmaNumber(key: Uint8Array): number {
    let low = 0;
    let high = this.lemmaCount;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const comparison = compareWithLine(key, this.file, this.lemmaLines[middle]!, PERCENT);
      if (comparison === 0) return middle;
      if (comparison < 0) high = middle;
      else low = middle + 1;
    }
    return -1;
  }
}
