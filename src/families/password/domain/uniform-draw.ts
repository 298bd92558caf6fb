import type { Randomness } from '../../../domain/ports.js';

const BYTE_VALUES = 256;

/**
 * `count` whole numbers, each uniformly from 0 to `bound` - 1, read from the randomness source's
 * bytes. Each number is read from as few bytes as hold `bound` values; a reading at or above the
 * largest multiple of `bound` those bytes can hold is thrown away rather than folded back, so that
 * no number is likelier than another (the remainder of a plain modulo would favour the smallest).
 */
export function uniformIndexes(randomness: Randomness, bound: number, count: number): number[] {
  if (!Number.isInteger(bound) || bound < 1 || bound > 2 ** 32) throw new RangeError(`bound ${bound} out of range`);
  let width = 1;
  while (BYTE_VALUES ** width < bound) width += 1;
  const readings = BYTE_VALUES ** width;
  const accepted = readings - (readings % bound);
  const drawn: number[] = [];
  while (drawn.length < count) {
    const wanted = count - drawn.length;
    // Enough readings that one draw usually suffices, given the share that is thrown away.
    const readingsToDraw = Math.ceil((wanted * readings) / accepted) + 1;
    const bytes = randomness.bytes(readingsToDraw * width);
    for (let at = 0; at + width <= bytes.length && drawn.length < count; at += width) {
      const reading = bytes.readUIntBE(at, width);
      if (reading < accepted) drawn.push(reading % bound);
    }
  }
  return drawn;
}
