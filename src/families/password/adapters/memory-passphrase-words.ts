import type { PassphraseWords } from '../domain/ports.js';

/** A word list given whole, for tests that want a passphrase they can follow. */
export class MemoryPassphraseWords implements PassphraseWords {
  private readonly words: readonly string[];

  constructor(words: readonly string[]) {
    if (words.length === 0) throw new Error('A word list needs at least one word');
    if (new Set(words).size !== words.length) throw new Error('A word list holds each word once');
    const unfit = words.find((word) => !/^[a-z]+$/.test(word));
    if (unfit !== undefined) throw new Error(`"${unfit}" is not made of the letters a to z alone`);
    this.words = Object.freeze([...words]);
  }

  list(): Promise<readonly string[]> {
    return Promise.resolve(this.words);
  }
}
