import { expect } from 'chai';
import { MemoryPassphraseWords } from '../../src/families/password/adapters/memory-passphrase-words.js';
import { GeneratePassword } from '../../src/families/password/domain/generate-password.js';
import { uniformIndexes } from '../../src/families/password/domain/uniform-draw.js';
import type { Randomness } from '../../src/domain/ports.js';
import { expectLeftTag, expectRight } from '../support/either.js';
import { SeededRandomness } from '../support/seeded-randomness.js';

/** Every reading of `width` bytes in turn, 0, 1, 2 … and round again: each value exactly as often. */
class CountingRandomness implements Randomness {
  private next = 0;
  constructor(private readonly width: number) {}
  bytes(count: number): Buffer {
    const bytes = Buffer.alloc(count);
    for (let at = 0; at + this.width <= count; at += this.width) {
      bytes.writeUIntBE(this.next, at, this.width);
      this.next = (this.next + 1) % 256 ** this.width;
    }
    return bytes;
  }
  uuid(): string {
    throw new Error('not used');
  }
}

/** Each call answers the next scripted bytes, then 255s, which no draw over 94 characters accepts. */
class ScriptedRandomness implements Randomness {
  constructor(private readonly calls: number[][]) {}
  bytes(count: number): Buffer {
    const script = this.calls.shift() ?? [];
    return Buffer.from([...script, ...Array<number>(Math.max(0, count - script.length)).fill(255)]);
  }
  uuid(): string {
    throw new Error('not used');
  }
}

const tally = (values: readonly (number | string)[]): Map<number | string, number> => {
  const counts = new Map<number | string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
};

const words = new MemoryPassphraseWords(['apple', 'birch', 'cedar', 'delta']);

describe('domain: uniform draws', () => {
  it('gives each of 94 values exactly as often when every byte comes up once, where a plain modulo would favour 0 to 67', () => {
    // 256 bytes a round: 188 are kept (two of each value), the 68 from 188 up are thrown away.
    const counts = tally(uniformIndexes(new CountingRandomness(1), 94, 188 * 4));
    expect(counts.size).to.equal(94);
    expect(new Set(counts.values())).to.deep.equal(new Set([8]));
  });

  it('reads two bytes a value for a bound past 256, as the 7,772 words, again with every value as often', () => {
    const counts = tally(uniformIndexes(new CountingRandomness(2), 7772, 62_176));
    expect(counts.size).to.equal(7772);
    expect(new Set(counts.values())).to.deep.equal(new Set([8]));
  });

  it('refuses a bound it cannot draw from', () => {
    for (const bound of [0, 1.5, 2 ** 32 + 1]) {
      expect(() => uniformIndexes(new SeededRandomness(1), bound, 1)).to.throw(RangeError);
    }
  });
});

describe('domain: generate a password', () => {
  it('draws the whole password again when a wanted class is missing, rather than patching one in', async () => {
    // a to z are 0 to 25, A to Z 26 to 51, the digits 52 to 61, the symbols 62 to 93.
    const generate = new GeneratePassword(
      new ScriptedRandomness([
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 26, 52, 62, 1, 27, 53, 63],
      ]),
      words,
    );
    expect(expectRight(await generate.execute({ length: 8 })).password).to.equal('aA0!bB1"');
  });

  it('makes every password that has each wanted class equally likely', async () => {
    // Two characters, `a` and `B`, one of each class wanted: 2^8 - 2 passwords of length 8 qualify.
    const exclude = 'bcdefghijklmnopqrstuvwxyzACDEFGHIJKLMNOPQRSTUVWXYZ';
    const generate = new GeneratePassword(new SeededRandomness('uniform'), words);
    const options = { length: 8, digits: false, symbols: false, exclude };
    const made: string[] = [];
    for (let i = 0; i < 254 * 40; i++) made.push(expectRight(await generate.execute(options)).password);
    const counts = tally(made);
    expect(counts.size).to.equal(254);
    expect(counts.has('aaaaaaaa') || counts.has('BBBBBBBB')).to.equal(false);
    // 40 expected of each; a seeded run, so these bounds (about four standard deviations) hold every time.
    expect(Math.min(...counts.values())).to.be.at.least(15);
    expect(Math.max(...counts.values())).to.be.at.most(65);
    expect(expectRight(await generate.execute(options)).entropyBits).to.equal(7.9);
  });

  it('makes a passphrase of its word list, each word as likely', async () => {
    const generate = new GeneratePassword(new SeededRandomness('words'), words);
    const made: string[] = [];
    for (let i = 0; i < 500; i++) made.push(...expectRight(await generate.execute({ words: 4 })).password.split('-'));
    const counts = tally(made);
    expect([...counts.keys()].sort()).to.deep.equal(['apple', 'birch', 'cedar', 'delta']);
    for (const count of counts.values()) expect(count).to.be.within(400, 600);
    expect(expectRight(await generate.execute({ words: 4 })).entropyBits).to.equal(8);
  });

  it('refuses what the HTTP codecs would, for a library caller', async () => {
    const generate = new GeneratePassword(new SeededRandomness(3), words);
    for (const options of [
      { length: 7 },
      { length: 129 },
      { length: 20.5 },
      { words: 3 },
      { words: 13 },
      { words: 5, length: 20 },
      { words: 5, exclude: 'lookalike' },
      { lower: false, upper: false, digits: false, symbols: false },
      { exclude: 'a b' },
      { exclude: '' },
      { exclude: 'é' },
      { exclude: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' },
    ]) {
      expectLeftTag(await generate.execute(options), 'InvalidInput');
    }
  });
});
