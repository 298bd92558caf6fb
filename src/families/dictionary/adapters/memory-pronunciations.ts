import type { PronouncingDictionary } from '../domain/ports.js';

/**
 * Pronunciations held in memory, each word's usual one first: for tests of the domain and for
 * developers without the CMU dictionary. Words are lower-case, as the domain asks them.
 */
export class MemoryPronunciations implements PronouncingDictionary {
  private readonly said: ReadonlyMap<string, readonly string[]>;

  constructor(pronunciations: Readonly<Record<string, readonly string[]>> = {}) {
    this.said = new Map(Object.entries(pronunciations));
  }

  pronunciationsOf(word: string): Promise<readonly string[]> {
    return Promise.resolve(this.said.get(word) ?? []);
  }
}
