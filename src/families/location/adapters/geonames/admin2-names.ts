import { readFile } from 'node:fs/promises';
import { grown, hashOf } from './name-index.js';

/** No second-level region: the data names none, or none by that code. */
export const NO_ADMIN2 = 0xffff;

const ADMIN2_BUCKET_BITS = 16;
const DOT = 0x2e;

/**
 * GeoNames' second-level regions, found by the bytes of their code (`US.MA.017`) as a line of
 * cities500.txt spells its three parts, with no string made per line: the details of cities500.txt
 * were read in 494–518 ms rather than 527–583 when the code was made a string and looked up in a
 * Map (five runs each, the built loader alone, 2026-11-28).
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
