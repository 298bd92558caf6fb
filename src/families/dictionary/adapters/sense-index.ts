import type { PartOfSpeech } from '../domain/sense.js';
import { LruCache } from '../../../platform/caching/lru-cache.js';
import { forEachLine, PreviousField } from '../../../platform/files/each-line.js';
import { distanceWithin, editsBetweenMasks, letterMasks } from '../domain/spelling-distance.js';

const PERCENT = 0x25;
const SPACE = 0x20;
const DIGIT_ZERO = 0x30;

/** Lemma searches remembered (see numberOf): a word and its base forms are rarely more. */
const RECENT_LOOKUPS = 4;

/** Each part of speech as a number, in WordNet's order of the parts: a lemma's senses are kept in that order. */
const PART_NUMBER: { readonly [P in PartOfSpeech]: number } = { noun: 1, verb: 2, adjective: 3, adverb: 4 };
/** The part of speech (its number) of a sense key's synset type digit (`run%2:38:00::`); 5 is a satellite adjective. */
const PART_OF_TYPE: Readonly<Record<number, number>> = { 0x31: 1, 0x32: 2, 0x33: 3, 0x34: 4, 0x35: 3 };

/**
 * What WordNet's `index.sense` tells: a line per sense of every lemma, `lemma%type:file:id:head:headId
 * offset senseNumber tagCount`, sorted by its key. It holds what the four `index.<part>` files do
 * (each lemma's synsets per part of speech, in the order of their sense numbers: checked equal for
 * all 155,467 lemma and part pairs of WordNet 3.1), and the tag count, how often the sense was found
 * in the semantic concordance's texts: what orders senses across parts of speech, and, summed per
 * lemma, how much a lemma is used.
 *
 * The file (7 MB) is read once and not kept: per distinct lemma (about 148,000) its spelling, its
 * summed count and its letters' masks, and per sense (about 207,000) its part of speech, synset
 * offset and count, in typed arrays (about 4 MB, no object per lemma), a lemma's senses by part of
 * speech and sense number. Lemmas are found by binary search or, for spelling suggestions, by a scan
 * of the lemmas of about the length asked (their numbers sorted by length). Keeping the index files
 * instead took 6 MB more.
 */
export class SenseIndex {
  /** Every lemma's spelling as the file writes it (underscores for spaces), one after the other in the file's order. */
  private readonly spellings: Buffer;
  /** Where each lemma's spelling starts in `spellings`; one more at the end. */
  private readonly lemmaStarts: Uint32Array;
  private readonly lemmaCounts: Uint32Array;
  private readonly lemmaOnce: Int32Array;
  private readonly lemmaTwice: Int32Array;
  /** Where each lemma's senses start in the sense arrays; one more at the end. */
  private readonly lemmaSenses: Uint32Array;
  /** Per sense: its part of speech's number (see PART_NUMBER). */
  private readonly senseParts: Uint8Array;
  private readonly senseOffsets: Uint32Array;
  private readonly senseCounts: Uint32Array;
  /** Lemma numbers by length; those of length n from `byLengthStarts[n]` to `byLengthStarts[n + 1]`. */
  private readonly byLength: Uint32Array;
  private readonly byLengthStarts: Uint32Array;
  private readonly lemmaCount: number;
  private readonly recentlyFound = new LruCache<string, number>(RECENT_LOOKUPS);

  /**
   * Reads the file twice, a line at a time: once to count, then into arrays made at their final
   * size. Arrays sized for every line and cut afterwards, and the file read whole, left about 20 MB
   * of garbage, which V8 holds until its next full collection: an idle server kept it (RSS 174 or
   * 191 MB in like runs of bench:utilities' first uses).
   */
  static async read(path: string): Promise<SenseIndex> {
    let lemmas = 0;
    let senses = 0;
    let spellingBytes = 0;
    await forEachSenseLine(path, (_bytes, from, percent, newLemma) => {
      if (newLemma) {
        lemmas += 1;
        spellingBytes += percent - from;
      }
      senses += 1;
    });
    const index = new SenseIndex(lemmas, senses, spellingBytes);
    /** Per sense, its sense number, to order each lemma's senses by once they are all read. */
    const senseNumbers = new Uint16Array(senses);
    let lemma = -1;
    let sense = 0;
    let written = 0;
    await forEachSenseLine(path, (bytes, from, percent, newLemma, to) => {
      if (newLemma) {
        if (lemma >= 0) index.orderSenses(lemma, sense, senseNumbers);
        lemma += 1;
        if (lemma === lemmas) return;
        // By a loop: Buffer's copy costs more to call than a lemma's ten bytes (the read took 131 ms rather than 101).
        for (let at = from; at < percent; at++) index.spellings[written++] = bytes[at]!;
        index.lemmaStarts[lemma + 1] = written;
        ({ once: index.lemmaOnce[lemma], twice: index.lemmaTwice[lemma] } = letterMasks(bytes, from, percent - from));
        index.lemmaSenses[lemma] = sense;
      }
      if (sense === senses) return;
      // The line's fields after the key: offset, sense number, tag count.
      const offsetStart = bytes.indexOf(SPACE, percent) + 1;
      const numberStart = bytes.indexOf(SPACE, offsetStart) + 1;
      const countStart = bytes.indexOf(SPACE, numberStart) + 1;
      index.senseParts[sense] = PART_OF_TYPE[bytes[percent + 1]!] ?? 0;
      index.senseOffsets[sense] = numberAt(bytes, offsetStart, numberStart - 1);
      senseNumbers[sense] = numberAt(bytes, numberStart, countStart - 1);
      index.senseCounts[sense] = numberAt(bytes, countStart, to);
      index.lemmaCounts[lemma]! += index.senseCounts[sense]!;
      sense += 1;
    });
    if (lemma + 1 !== lemmas || sense !== senses || written !== spellingBytes)
      throw new Error(`${path} changed while it was read`);
    if (lemma >= 0) index.orderSenses(lemma, sense, senseNumbers);
    index.lemmaSenses[lemmas] = senses;
    index.sortByLength();
    return index;
  }

  private constructor(lemmas: number, senses: number, spellingBytes: number) {
    this.lemmaCount = lemmas;
    this.spellings = Buffer.alloc(spellingBytes);
    this.lemmaStarts = new Uint32Array(lemmas + 1);
    this.lemmaCounts = new Uint32Array(lemmas);
    this.lemmaOnce = new Int32Array(lemmas);
    this.lemmaTwice = new Int32Array(lemmas);
    this.lemmaSenses = new Uint32Array(lemmas + 1);
    this.senseParts = new Uint8Array(senses);
    this.senseOffsets = new Uint32Array(senses);
    this.senseCounts = new Uint32Array(senses);
    this.byLength = new Uint32Array(lemmas);
    this.byLengthStarts = new Uint32Array(257);
  }

  /** Whether the lemma has a sense in that part of speech. */
  has(lemma: string, partOfSpeech: PartOfSpeech): boolean {
    const [from, to] = this.sensesOf(lemma, partOfSpeech);
    return from < to;
  }

  /** The lemma's synsets in that part of speech, by their offsets in its data file, in the order of their sense numbers. */
  synsetOffsets(lemma: string, partOfSpeech: PartOfSpeech): number[] {
    const [from, to] = this.sensesOf(lemma, partOfSpeech);
    return Array.from(this.senseOffsets.subarray(from, to));
  }

  /** The tag count of each of a lemma's counted senses in one part of speech, by its synset's offset (absent: 0). */
  tagCounts(lemma: string, partOfSpeech: PartOfSpeech): Map<number, number> {
    const counts = new Map<number, number>();
    const [from, to] = this.sensesOf(lemma, partOfSpeech);
    for (let sense = from; sense < to; sense++)
      if (this.senseCounts[sense]! > 0) counts.set(this.senseOffsets[sense]!, this.senseCounts[sense]!);
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

  /** Where the lemma's senses in that part of speech are in the sense arrays (from, to); empty when it has none. */
  private sensesOf(lemma: string, partOfSpeech: PartOfSpeech): [number, number] {
    const found = this.numberOf(lemma);
    if (found === -1) return [0, 0];
    const part = PART_NUMBER[partOfSpeech];
    let from = this.lemmaSenses[found]!;
    const end = this.lemmaSenses[found + 1]!;
    while (from < end && this.senseParts[from]! < part) from++;
    let to = from;
    while (to < end && this.senseParts[to] === part) to++;
    return [from, to];
  }

  /**
   * Puts the senses of a lemma (`lemmaSenses[lemma]` to `end`) in order of part of speech, then of
   * sense number: the file orders them by sense key. A lemma has a few (`break` the most: 75), so an insertion sort.
   */
  private orderSenses(lemma: number, end: number, senseNumbers: Uint16Array): void {
    const parts = this.senseParts;
    const rank = (sense: number): number => parts[sense]! * 0x10000 + senseNumbers[sense]!;
    for (let i = this.lemmaSenses[lemma]! + 1; i < end; i++) {
      const part = parts[i]!;
      const number = senseNumbers[i]!;
      const offset = this.senseOffsets[i]!;
      const count = this.senseCounts[i]!;
      const key = rank(i);
      let j = i - 1;
      for (; j >= this.lemmaSenses[lemma]! && rank(j) > key; j--) {
        parts[j + 1] = parts[j]!;
        senseNumbers[j + 1] = senseNumbers[j]!;
        this.senseOffsets[j + 1] = this.senseOffsets[j]!;
        this.senseCounts[j + 1] = this.senseCounts[j]!;
      }
      parts[j + 1] = part;
      senseNumbers[j + 1] = number;
      this.senseOffsets[j + 1] = offset;
      this.senseCounts[j + 1] = count;
    }
  }

  /** Fills `byLength` and `byLengthStarts` once every spelling is read. */
  private sortByLength(): void {
    for (let lemma = 0; lemma < this.lemmaCount; lemma++)
      this.byLengthStarts[Math.min(this.lengthOf(lemma), 255) + 1]! += 1;
    for (let length = 1; length <= 256; length++) this.byLengthStarts[length]! += this.byLengthStarts[length - 1]!;
    const filled = this.byLengthStarts.slice(0, 256);
    for (let lemma = 0; lemma < this.lemmaCount; lemma++)
      this.byLength[filled[Math.min(this.lengthOf(lemma), 255)]!++] = lemma;
  }

  private lengthOf(lemma: number): number {
    return this.lemmaStarts[lemma + 1]! - this.lemmaStarts[lemma]!;
  }

  /**
   * The number of a lemma as the domain spells it (spaces, not underscores), or -1. The last few
   * found are remembered: a word and its possible base forms are asked about in each of the four
   * parts of speech in turn, and then for their senses, so most searches repeat a recent one.
   */
  private numberOf(lemma: string): number {
    const kept = this.recentlyFound.get(lemma);
    if (kept !== undefined) return kept;
    const found = this.lemmaNumber(Buffer.from(lemma.replaceAll(' ', '_'), 'utf8'));
    this.recentlyFound.set(lemma, found);
    return found;
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

/**
 * Calls `onLine` with each line's bytes (from `from` to `to`), the "%" ending its lemma, and
 * whether its lemma differs from the line before's (a lemma's lines follow one another).
 */
async function forEachSenseLine(
  path: string,
  onLine: (bytes: Buffer, from: number, percent: number, newLemma: boolean, to: number) => void,
): Promise<void> {
  const lemma = new PreviousField();
  await forEachLine(path, (bytes, from, to) => {
    const percent = bytes.indexOf(PERCENT, from);
    if (percent === -1 || percent >= to) throw new Error(`${path} holds a line with no sense key`);
    const newLemma = !lemma.repeats(bytes, from, percent);
    onLine(bytes, from, percent, newLemma, to);
  });
}

/** The decimal number written in bytes `start` to `end`. */
function numberAt(bytes: Buffer, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 10 + bytes[i]! - DIGIT_ZERO;
  return value;
}
