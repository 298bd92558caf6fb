import { expect } from 'chai';
import { EffLongWordList } from '../../src/families/password/adapters/eff-long-word-list.js';
import { MemoryPassphraseWords } from '../../src/families/password/adapters/memory-passphrase-words.js';
import type { PassphraseWords } from '../../src/families/password/domain/ports.js';

const adapters: { name: string; make: () => PassphraseWords; size: number }[] = [
  { name: 'memory', make: () => new MemoryPassphraseWords(['alpha', 'bravo', 'charlie']), size: 3 },
  // The EFF's 7,776 less drop-down, flet-tip, t-shirt and yo-yo.
  { name: 'EFF long word list', make: () => new EffLongWordList(), size: 7772 },
];

for (const adapter of adapters) {
  describe(`contract: PassphraseWords (${adapter.name})`, () => {
    it('lists distinct words of the letters a to z alone, so that hyphens tell them apart again', async () => {
      const list = await adapter.make().list();
      expect(list).to.have.length(adapter.size);
      expect(new Set(list).size).to.equal(list.length);
      for (const word of list) expect(word).to.match(/^[a-z]+$/);
    });

    it('answers the same list on every call', async () => {
      const source = adapter.make();
      const [first, second] = await Promise.all([source.list(), source.list()]);
      expect(second).to.deep.equal(first);
      expect(await source.list()).to.deep.equal(first);
    });
  });
}

describe('adapter: memory word list', () => {
  it('refuses an empty list, a word twice, and a word that is not a to z alone', () => {
    expect(() => new MemoryPassphraseWords([])).to.throw();
    expect(() => new MemoryPassphraseWords(['one', 'one'])).to.throw();
    for (const word of ['t-shirt', 'Capital', 'two words', 'café']) {
      expect(() => new MemoryPassphraseWords(['fine', word])).to.throw();
    }
  });
});
