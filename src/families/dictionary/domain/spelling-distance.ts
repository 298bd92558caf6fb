/**
 * How far apart two spellings are, for suggesting words close to one the dictionary lacks.
 * Spellings are compared as bytes (WordNet's lemmas are ASCII), so that a lexicon can compare
 * its lemmas where they lie in its files without making a string of each.
 */

/** Rows of the distance table, reused: a search compares one word with a hundred thousand. */
let rows = [new Int32Array(66), new Int32Array(66), new Int32Array(66)];

/**
 * The optimal string alignment distance between `a` (the bytes `aStart` to `aStart + aLength`
 * of a buffer) and `b`: each letter added, left out or replaced, and each swap of two
 * neighbours, counts one ("recieve" → "receive": 1). Beyond `max`, only that it is beyond:
 * `max + 1`.
 */
export function distanceWithin(a: Uint8Array, aStart: number, aLength: number, b: Uint8Array, max: number): number {
  if (Math.abs(aLength - b.length) > max) return max + 1;
  if (rows[0]!.length < b.length + 1) rows = rows.map(() => new Int32Array(b.length + 1));
  let [beforeLast, last, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j++) last[j] = j;
  for (let i = 1; i <= aLength; i++) {
    const ai = a[aStart + i - 1]!;
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const bj = b[j - 1]!;
      let best = Math.min(last[j]! + 1, current[j - 1]! + 1, last[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b[j - 2] && a[aStart + i - 2] === bj) best = Math.min(best, beforeLast[j - 2]! + 1);
      current[j] = best;
      if (best < rowMinimum) rowMinimum = best;
    }
    if (rowMinimum > max) return max + 1;
    [beforeLast, last, current] = [last, current, beforeLast];
  }
  return Math.min(last[b.length]!, max + 1);
}

/**
 * A spelling's letters in two masks: which of a to z (and of anything else, one bit for all of it)
 * it has, and which it has twice or more. An edit changes the count of at most two letters by one
 * each, so at most two bits of the pair: words whose pairs differ by more bits than twice the
 * distance allowed need no table.
 */
export function letterMasks(bytes: Uint8Array, start = 0, length = bytes.length): { once: number; twice: number } {
  let once = 0;
  let twice = 0;
  for (let i = start; i < start + length; i++) {
    const letter = bytes[i]! - 0x61;
    const bit = letter >= 0 && letter < 26 ? 1 << letter : 1 << 26;
    twice |= once & bit;
    once |= bit;
  }
  return { once, twice };
}

/** The bits set in a 32-bit mask, counted in parallel (a search counts them for 50,000 lemmas). */
const bitsOf = (mask: number): number => {
  const pairs = mask - ((mask >>> 1) & 0x55555555);
  const nibbles = (pairs & 0x33333333) + ((pairs >>> 2) & 0x33333333);
  return Math.imul((nibbles + (nibbles >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
};

/** The least number of edits that can turn one spelling's letters into the other's, by their masks. */
export function editsBetweenMasks(onceA: number, twiceA: number, onceB: number, twiceB: number): number {
  return Math.ceil((bitsOf(onceA ^ onceB) + bitsOf(twiceA ^ twiceB)) / 2);
}

/**
 * How far a misspelling may be from what was meant: one edit for words of up to four letters,
 * where two would reach half the dictionary, two for longer ones.
 */
export const maxDistanceFor = (word: string): number => (word.length <= 4 ? 1 : 2);
