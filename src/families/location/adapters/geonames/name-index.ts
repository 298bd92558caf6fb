import { MIN_PREFIX_KEY_LENGTH, placeNameKey } from '../../domain/places.js';
import type { PlaceTable } from './place-table.js';

/**
 * Every place's name key (see `placeNameKey`) as UTF-8 bytes end to end, and two hash tables
 * over place ids chained through typed arrays: by whole key, and by the key's first three bytes.
 * Chains run from the most populous place down, so a walk can stop once it has enough. Plain
 * ASCII names (four in five) are keyed byte by byte without making a string, so building it
 * leaves little garbage and no sorting is needed.
 */
export interface NameIndex {
  readonly keyBytes: Buffer;
  /** Where each key starts in `keyBytes`; one more entry than places. */
  readonly keyStart: Uint32Array;
  readonly byKey: Chains;
  readonly byPrefix: Chains;
  /**
   * By the key's first six bytes, for queries at least that long: the three-byte chain of
   * "springfield" also holds every "spr…", "spa…" that shares its bucket, walked to the end when
   * few places carry the name further (most names asked). In bench:utilities' 2,000 random place
   * names, walking the three-byte chains took 34 µs a search, more than all the rest of it.
   */
  readonly byLongPrefix: Chains;
  /** For type-ahead on keys too short for `byPrefix`: chains by the key's first byte and by its first two (no hashing: 256 and 65,536 heads). */
  readonly byFirstByte: Chains;
  readonly byFirstTwoBytes: Chains;
}

interface Chains {
  /** First id of each bucket, -1 when empty. */
  readonly heads: Int32Array;
  /** The id after each id in its bucket, -1 at the end. */
  readonly next: Int32Array;
}

const BUCKET_BITS = 17;
const PREFIX_BYTES = 3;
const LONG_PREFIX_BYTES = 6;
/** Ids fit below this, so population × ID_SPAN + id sorts by population exactly as a double. */
const ID_SPAN = 2 ** 20;

const SPACE = 0x20;
/** Space, hyphen, apostrophe, grave accent and dot: one space in a key, none at its ends. */
const isSeparator = (byte: number) =>
  byte === SPACE || byte === 0x2d || byte === 0x27 || byte === 0x60 || byte === 0x2e;

/** Whether the key at `start` in `keyBytes` begins with `query`. A loop beats Buffer#compare here: most candidates differ within a byte or two. */
export function startsWith(keyBytes: Uint8Array, start: number, query: Uint8Array): boolean {
  for (let i = 0; i < query.length; i++) if (keyBytes[start + i] !== query[i]) return false;
  return true;
}

/** Ids of every accepted place whose key is `query` (UTF-8 of a name key), most populous first. */
export function idsNamed(index: NameIndex, query: Buffer, accept: (id: number) => boolean): number[] {
  const { keyBytes, keyStart, byKey } = index;
  const found: number[] = [];
  for (let id = byKey.heads[bucketOf(query, query.length)]!; id !== -1; id = byKey.next[id]!) {
    if (keyStart[id + 1]! - keyStart[id]! === query.length && startsWith(keyBytes, keyStart[id]!, query) && accept(id))
      found.push(id);
  }
  return found;
}

/**
 * Up to `limit` ids of accepted places whose key starts with `query` and is longer, most
 * populous first; none for queries shorter than `MIN_PREFIX_KEY_LENGTH` characters.
 */
export function idsStartingWith(
  index: NameIndex,
  query: Buffer,
  limit: number,
  accept: (id: number) => boolean,
): number[] {
  const { keyBytes, keyStart } = index;
  const found: number[] = [];
  if (query.toString('utf8').length < MIN_PREFIX_KEY_LENGTH) return found;
  const [chains, bucket] = prefixChainOf(index, query);
  for (let id = chains.heads[bucket]!; id !== -1 && found.length < limit; id = chains.next[id]!) {
    if (keyStart[id + 1]! - keyStart[id]! > query.length && startsWith(keyBytes, keyStart[id]!, query) && accept(id))
      found.push(id);
  }
  return found;
}

/**
 * Up to `limit` ids of accepted places whose key starts with `query` (or is it), highest `scoreOf`
 * first (ties most populous first). Candidates are walked most populous first, and the walk stops
 * once `boundOf` (the most a place that populous can score) cannot beat the last of a full list,
 * so a common start such as "san" reads a few hundred places, not thousands.
 */
export function bestIdsStartingWith(
  index: NameIndex,
  query: Buffer,
  limit: number,
  accept: (id: number) => boolean,
  scoreOf: (id: number) => number,
  boundOf: (id: number) => number,
): number[] {
  const { keyBytes, keyStart } = index;
  const found: number[] = [];
  const scores: number[] = [];
  const consider = (id: number): boolean => {
    if (found.length === limit && boundOf(id) <= scores[limit - 1]!) return false;
    if (keyStart[id + 1]! - keyStart[id]! < query.length || !startsWith(keyBytes, keyStart[id]!, query) || !accept(id))
      return true;
    const score = scoreOf(id);
    let at = found.length;
    while (at > 0 && scores[at - 1]! < score) at--;
    if (at < limit) {
      found.splice(at, 0, id);
      scores.splice(at, 0, score);
      if (found.length > limit) {
        found.pop();
        scores.pop();
      }
    }
    return true;
  };
  if (query.length === 0) return found;
  const [chains, bucket] =
    query.length >= PREFIX_BYTES
      ? prefixChainOf(index, query)
      : query.length === 2
        ? [index.byFirstTwoBytes, (query[0]! << 8) | query[1]!]
        : [index.byFirstByte, query[0]!];
  for (let id = chains.heads[bucket]!; id !== -1 && consider(id); id = chains.next[id]!);
  return found;
}

/** The chain holding every key that starts with `query` (at least PREFIX_BYTES long), and its bucket: the longest that does. */
function prefixChainOf(index: NameIndex, query: Uint8Array): [Chains, number] {
  return query.length >= LONG_PREFIX_BYTES
    ? [index.byLongPrefix, bucketOf(query, LONG_PREFIX_BYTES)]
    : [index.byPrefix, bucketOf(query, PREFIX_BYTES)];
}

/**
 * Name keys (see placeNameKey) written one after another as UTF-8, growing as they come: the name
 * index's, the other names' (place-names.ts), and a place's own key to compare them with.
 */
export class KeyBytes {
  bytes: Buffer;
  /** Where the last key written ends; set it back to drop keys written after that point. */
  end = 0;

  constructor(size: number) {
    this.bytes = Buffer.allocUnsafe(size);
  }

  /**
   * Appends the key of the UTF-8 name at `from`..`to` of `name`; whether the name was printable
   * ASCII (keyed byte by byte, with no string made) rather than put through placeNameKey.
   */
  append(name: Buffer, from: number, to: number): boolean {
    if (isPrintableAscii(name, from, to)) {
      this.ensureRoom(to - from);
      this.end = writeAsciiKey(name, from, to, this.bytes, this.end);
      return true;
    }
    const key = placeNameKey(name.toString('utf8', from, to));
    this.ensureRoom(Buffer.byteLength(key));
    this.end += this.bytes.write(key, this.end);
    return false;
  }

  private ensureRoom(bytes: number): void {
    if (this.end + bytes > this.bytes.length) this.bytes = grown(this.bytes, this.end + bytes);
  }
}

export function buildNameIndex(table: PlaceTable): NameIndex {
  const { nameBytes, nameStart, count } = table;
  const keys = new KeyBytes(nameBytes.length + 1024);
  const keyStart = new Uint32Array(count + 1);
  for (let id = 0; id < count; id++) {
    keyStart[id] = keys.end;
    keys.append(nameBytes, nameStart[id]!, nameStart[id + 1]!);
  }
  keyStart[count] = keys.end;
  const keyBytes = keys.bytes;
  const end = keys.end;

  const byKey = emptyChains(count);
  const byPrefix = emptyChains(count);
  const byLongPrefix = emptyChains(count);
  const byFirstByte = emptyChains(count, 8);
  const byFirstTwoBytes = emptyChains(count, 16);
  // Least populous first: each id goes to the head of its chain, so chains end up most populous first.
  for (const id of idsByPopulation(table)) {
    const start = keyStart[id]!;
    const length = keyStart[id + 1]! - start;
    link(byKey, bucketOf(keyBytes, length, start), id);
    if (length >= 1) link(byFirstByte, keyBytes[start]!, id);
    if (length >= 2) link(byFirstTwoBytes, (keyBytes[start]! << 8) | keyBytes[start + 1]!, id);
    if (length >= PREFIX_BYTES) link(byPrefix, bucketOf(keyBytes, PREFIX_BYTES, start), id);
    if (length >= LONG_PREFIX_BYTES) link(byLongPrefix, bucketOf(keyBytes, LONG_PREFIX_BYTES, start), id);
  }
  return {
    keyBytes: keyBytes.subarray(0, end),
    keyStart,
    byKey,
    byPrefix,
    byLongPrefix,
    byFirstByte,
    byFirstTwoBytes,
  };
}

export function isPrintableAscii(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i]! < 0x20 || bytes[i]! > 0x7e) return false;
  return true;
}

/**
 * The key placeNameKey makes of the printable ASCII name at `from`..`to` (lower case, separators
 * folded), written at `at` in `into` without making a string; returns where the key ends.
 * `into` must have room for `to - from` bytes.
 */
export function writeAsciiKey(name: Uint8Array, from: number, to: number, into: Uint8Array, at: number): number {
  const start = at;
  let end = at;
  let spacePending = false;
  for (let i = from; i < to; i++) {
    const byte = name[i]!;
    if (isSeparator(byte)) {
      spacePending = end > start;
      continue;
    }
    if (spacePending) into[end++] = SPACE;
    spacePending = false;
    into[end++] = byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
  }
  return end;
}

export function grown(bytes: Buffer, atLeast: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.max(atLeast, bytes.length * 2));
  bytes.copy(bigger);
  return bigger;
}

/** FNV-1a of `length` bytes from `start`. */
export function hashOf(bytes: Uint8Array, length: number, start = 0): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < start + length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

/** The hash cut to the table size. */
const bucketOf = (bytes: Uint8Array, length: number, start = 0): number =>
  hashOf(bytes, length, start) >>> (32 - BUCKET_BITS);

const emptyChains = (count: number, bucketBits = BUCKET_BITS): Chains => ({
  heads: new Int32Array(2 ** bucketBits).fill(-1),
  next: new Int32Array(count).fill(-1),
});

function link(chains: Chains, bucket: number, id: number): void {
  chains.next[id] = chains.heads[bucket]!;
  chains.heads[bucket] = id;
}

/** Ids from least to most populous, by a native numeric sort rather than a comparator. */
function idsByPopulation(table: PlaceTable): Uint32Array {
  if (table.count > ID_SPAN) throw new Error(`The gazetteer holds more than ${ID_SPAN} places`);
  const order = new Float64Array(table.count);
  for (let id = 0; id < table.count; id++) order[id] = table.population[id]! * ID_SPAN + id;
  order.sort();
  const ids = new Uint32Array(table.count);
  for (let i = 0; i < table.count; i++) ids[i] = order[i]! % ID_SPAN;
  return ids;
}
