import { createHash } from 'node:crypto';
import type { Randomness } from '../../src/domain/ports.js';

/**
 * The same bytes for the same seed, every run: SHA-256 of the seed and a block counter, in
 * sequence. For tests that want predictable ids, uids, secrets and nonces; guessable by design.
 */
export class SeededRandomness implements Randomness {
  private pending = Buffer.alloc(0);
  private block = 0;

  constructor(private readonly seed: string | number) {}

  bytes(count: number): Buffer {
    while (this.pending.length < count) {
      const next = createHash('sha256').update(`${this.seed}:${this.block++}`).digest();
      this.pending = Buffer.concat([this.pending, next]);
    }
    const drawn = this.pending.subarray(0, count);
    this.pending = this.pending.subarray(count);
    return Buffer.from(drawn);
  }

  /** 16 drawn bytes with the version (4) and variant (10xx) bits of RFC 9562 set. */
  uuid(): string {
    const b = this.bytes(16);
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const hex = b.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
