import type { PartOfSpeech } from '../domain/sense.js';
import { distanceWithin, editsBetweenMasks, letterMasks } from '../domain/spelling-distance.js';

const PERCENT = 0x25;
const SPACE = 0x20;
const NEWLINE = 0x0a;
const DIGIT_ZERO = 0x30;

/** The synset type digit of a sense key (`run%2:38:00::`) for each part of speech; 5 is a satellite adjective. */
const SENSE_KEY_TYPES: { readonly [P in PartOfSpeech]: readonly number[] } = {
  noun: [0x31],
  verb: [0x32],
  adjective: [0x33, 0x35],
  adverb: [0x34],
};

/**
 * What WordNet's `index.sense` tells: a line per sense of every lemma, `lemma%type:file:id:head:headId
 * offset senseNumber tagCount`, sorted by its key. The tag count is how often the sense was found
 * in the semantic concordance's texts: what orders senses across parts of speech, and, summed per
 * lemma, how much a lemma is used.
 *
 * The file (7 MB) is read once and not kept: per distinct lemma (about 148,000) its spelling, its
 * summed count and its letters' masks, and per sense ever counted (about 35,000; the others count
 * 0) its type, offset and count, all in typed arrays (about 5 MB, no object per lemma), searched by
 * binary search or, for spelling suggestions, a scan of the lemmas of about the length asked (their
 * numbers sorted by length).
 */
export class SenseIndex {
  /** Every lemma's spelling as the file writes it (underscores for spaces), one after the other in the file's order. */
  private readonly spellings: Buffer;
  /** Where each lemma's spelling starts in `spellings`; one more at the end. */
  private readonly lemmaStarts: Uint32Array;
  private readonly lemmaCounts: Uint32Array;
  private readonly lemmaOnce: Int32Array;
  private readonly lemmaTwice: Int32Array;
  /** Where each lemma's counted senses start in the sense arrays; one more at the end. */
  private readonly lemmaSenses: Uint32Array;
  private readonly senseTypes: Uint8Array;
  private readonly senseOffsets: Uint32Array;
  private readonly senseCounts: Uint32Array;
  /** Lemma numbers by length; those of length n from `byLengthStarts[n]` to `byLengthStarts[n + 1]`. */
  private readonly byLength: Uint32Array;
  private readonly byLengthStarts: Uint32Array;
  private readonly lemmaCount: number;

  constructor(file: Buffer) {
    let lines = 0;
    for (let at = file.indexOf(NEWLINE); at !== -1; at = file.indexOf(NEWLINE, at + 1)) lines += 1;
    const spellings = Buffer.allocUnsafe(file.length);
    const starts = new Uint32Array(lines + 2);
    const counts = new Uint32Array(lines + 1);
    const once = new Int32Array(lines + 1);
    const twice = new Int32Array(lines + 1);
    const lemmaSenses = new Uint32Array(lines + 2);
    const types = new Uint8Array(lines);
    const offsets = new Uint32Array(lines);
    const senseCounts = new Uint32Array(lines);
    let lemmas = 0;
    let senses = 0;
    let written = 0;
    for (let at = 0; at < file.length;) {
      const percent = file.indexOf(PERCENT, at);
      const newline = file.indexOf(NEWLINE, at);
      const lineEnd = newline === -1 ? file.length : newline;
      const length = percent - at;
      const previous = lemmas - 1;
      const sameLemma =
        lemmas > 0 &&
        length === starts[lemmas]! - starts[previous]! &&
        file.compare(spellings, starts[previous]!, starts[lemmas]!, at, percent) === 0;
      if (!sameLemma) {
        written += file.copy(spellings, written, at, percent);
        ({ once: once[lemmas], twice: twice[lemmas] } = letterMasks(file, at, length));
        lemmaSenses[lemmas] = senses;
        lemmas += 1;
        starts[lemmas] = written;
      }
      // The line's fields after the key: offset, sense number, tag count.
      const offsetStart = file.indexOf(SPACE, percent) + 1;
      const tagCount = numberAt(file, file.lastIndexOf(SPACE, lineEnd) + 1, lineEnd);
      if (tagCount > 0) {
        types[senses] = file[percent + 1]!;
        offsets[senses] = numberAt(file, offsetStart, file.indexOf(SPACE, offsetStart));
        senseCounts[senses] = tagCount;
        senses += 1;
        counts[lemmas - 1]! += tagCount;
      }
      at = lineEnd + 1;
    }
    lemmaSenses[lemmas] = senses;
    // Copies of the parts used, so that the arrays sized for every line are let go.
    this.spellings = Buffer.from(spellings.subarray(0, written));
    this.lemmaStarts = starts.slice(0, lemmas + 1);
    this.lemmaCounts = counts.slice(0, lemmas);
    this.lemmaOnce = once.slice(0, lemmas);
    this.lemmaTwice = twice.slice(0, lemmas);
    this.lemmaSenses = lemmaSenses.slice(0, lemmas + 1);
    this.senseTypes = types.slice(0, senses);
    this.senseOffsets = offsets.slice(0, senses);
    this.senseCounts = senseCounts.slice(0, senses);
    this.lemmaCount = lemmas;
    this.byLengthStarts = new Uint32Array(257);
    for (let lemma = 0; lemma < lemmas; lemma++) this.byLengthStarts[Math.min(this.lengthOf(lemma), 255) + 1]! += 1;
    for (let length = 1; length <= 256; length++) this.byLengthStarts[length]! += this.byLengthStarts[length - 1]!;
    this.byLength = new Uint32Array(lemmas);
    const filled = this.byLengthStarts.slice(0, 256);
    for (let lemma = 0; lemma < lemmas; lemma++) this.byLength[filled[Math.min(this.lengthOf(lemma), 255)]!++] = lemma;
  }

  /** The tag count of each of a lemma's counted senses in one part of speech, by its synset's offset (absent: 0). */
  tagCounts(lemma: string, partOfSpeech: PartOfSpeech): Map<number, number> {
    const counts = new Map<number, number>();
    const found = this.lemmaNumber(Buffer.from(lemma.replaceAll(' ', '_'), 'utf8'));
    if (found === -1) return counts;
    const types = SENSE_KEY_TYPES[partOfSpeech];
    for (let sense = this.lemmaSenses[found]!; sense < this.lemmaSenses[found + 1]!; sense++)
      if (types.includes(this.senseTypes[sense]!)) counts.set(this.senseOffsets[sense]!, this.senseCounts[sense]!);
    return counts;
  }

  /**
   * The lemmas within `maxDistance` edits of `word`, closest first, then the most used, then in the
   * file's order; at most `limit`. Of the lemmas of a length that close, those whose letters could
   * be that close (a few hundred) get a distance table.
   */
  nearLemmas(word: string, maxDistance: number, limit: number): string[] {
    const key = Buffer.from(word.replaceAll(' ', '_'), 'utf8');
    const { once, twice } = letterMasks(key);
    const near: { lemma: number; distance: number }[] = [];
    const shortest = Math.min(Math.max(key.length - maxDistance, 0), 255);
    const longest = Math.min(key.length + maxDistance, 255);
    for (let at = this.byLengthStarts[shortest]!; at < this.byLengthStarts[longest + 1]!; at++) {
      const lemma = this.byLength[at]!;
      if (editsBetweenMasks(once, twice, this.lemmaOnce[lemma]!, this.lemmaTwice[lemma]!) > maxDistance) continue;
      const distance = distanceWithin(this.spellings, this.lemmaStarts[lemma]!, this.lengthOf(lemma), key, maxDistance);
      if (distance <= maxDistance) near.push({ lemma, distance });
    }
    return near
      .sort(
        (a, b) =>
          a.distance - b.distance || this.lemmaCounts[b.lemma]! - this.lemmaCounts[a.lemma]! || a.lemma - b.lemma,
      )
      .slice(0, limit)
      .map(({ lemma }) =>
        this.spellings.toString('utf8', this.lemmaStarts[lemma]!, this.lemmaStarts[lemma + 1]!).replaceAll('_', ' '),
      );
  }

  private lengthOf(lemma: number): number {
    return this.lemmaStarts[lemma + 1]! - this.lemmaStarts[lemma]!;
  }

  /**
   * The lemma's number, by a binary search in the file's order, where a lemma ends with the "%"
   * of its sense keys (before any byte a lemma has): "run" before "run_away"; -1 when absent.
   */
  private lemmaNumber(key: Uint8Array): number {
    let low = 0;
    let high = this.lemmaCount;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const comparison = this.compareWithLemma(key, middle);
      if (comparison === 0) return middle;
      if (comparison < 0) high = middle;
      else low = middle + 1;
    }
    return -1;
  }

  private compareWithLemma(key: Uint8Array, lemma: number): number {
    const start = this.lemmaStarts[lemma]!;
    const length = this.lengthOf(lemma);
    for (let i = 0; ; i++) {
      const ours = i < key.length ? key[i]! : PERCENT;
      const theirs = i < length ? this.spellings[start + i]! : PERCENT;
      if (ours !== theirs) return ours - theirs;
      if (ours === PERCENT) return 0;
    }
  }
}

/** The decimal number written in bytes `start` to `end`. */
function numberAt(bytes: Buffer, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 10 + bytes[i]! - DIGIT_ZERO;
  return value;
}
