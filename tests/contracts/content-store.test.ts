import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { CachedContentStore } from '../../src/families/content/adapters/cached-content-store.js';
import { readBundledFacts } from '../../src/families/content/adapters/bundled-facts.js';
import { KnexContentStore } from '../../src/families/content/adapters/knex-content-store.js';
import { MemoryContentStore } from '../../src/families/content/adapters/memory-content-store.js';
import { contentEntry, type ContentEntry, type ContentInput } from '../../src/families/content/domain/content.js';
import type { ContentStore } from '../../src/families/content/domain/ports.js';
import { sqlDatabases } from '../support/databases.js';
import { ManualClock } from '../support/manual-clock.js';

/** Every adapter of the content store as a fresh installation has it: holding the bundled facts. */
const adapters: { name: string; open: () => Promise<{ store: ContentStore; close: () => Promise<void> }> }[] = [
  { name: 'memory', open: async () => ({ store: new MemoryContentStore(readBundledFacts(0)), close: async () => {} }) },
  {
    name: 'cached, over memory',
    open: async () => ({
      store: new CachedContentStore(new MemoryContentStore(readBundledFacts(0)), new ManualClock(), 60_000),
      close: async () => {},
    }),
  },
  ...sqlDatabases.map(({ name, open }) => ({
    name: `Knex on ${name}`,
    open: async () => {
      const database = await open();
      return { store: new KnexContentStore(database.db), close: database.drop };
    },
  })),
];

let created = Date.UTC(2026, 0, 1);
const anEntry = (input: Partial<ContentInput> & { text: string }): ContentEntry => {
  const entry = contentEntry({ kind: 'quote', category: 'stoics', ...input }, created++, 'imported');
  if (E.isLeft(entry)) throw new Error(JSON.stringify(entry.left));
  return entry.right;
};

for (const adapter of adapters) {
  describe(`contract: ContentStore (${adapter.name})`, () => {
    let store: ContentStore;
    let close: () => Promise<void>;
    beforeEach(async () => ({ store, close } = await adapter.open()));
    afterEach(async () => close());

    it('holds the bundled cat and dog facts from the start, at least 60 of each', async () => {
      const categories = await store.categories('fact');
      expect(categories.map((each) => each.category)).to.deep.equal(['cat', 'dog']);
      for (const { count } of categories) expect(count).to.be.at.least(60);
      expect(await store.categories('quote')).to.deep.equal([]);
      const first = await store.nth('fact', 'cat', 0);
      expect(first).to.include({ kind: 'fact', category: 'cat', author: null, source: 'utility-api' });
    });

    it('adds entries once, all in one call, field for field, and says which it added', async () => {
      const seneca = anEntry({
        text: 'We suffer more in imagination than in reality.',
        author: 'Seneca',
        source: 'Letters',
      });
      const marcus = anEntry({ text: 'The best revenge is not to be like your enemy.', author: 'Marcus Aurelius' });
      expect(await store.add([seneca, marcus])).to.have.members([seneca.id, marcus.id]);
      // The same text, written differently, is the same entry.
      const again = anEntry({ text: 'we suffer MORE in imagination  than in reality.' });
      expect(again.id).to.equal(seneca.id);
      expect(await store.add([again, anEntry({ text: 'New one.' })])).to.have.length(1);
      expect(await store.list({ kind: 'quote', category: 'stoics' })).to.deep.include(seneca);
      expect(await store.count('quote', 'stoics')).to.equal(3);
      expect(await store.add([])).to.deep.equal([]);
    });

    it('keeps the same text apart in another category or kind', async () => {
      const text = 'Cats are liquid.';
      const ids = [
        anEntry({ text }),
        anEntry({ text, category: 'memes' }),
        anEntry({ text, kind: 'fact', category: 'memes' }),
      ].map((entry) => entry.id);
      expect(new Set(ids).size).to.equal(3);
    });

    it('gives the nth entry of a category in order of id, counts and lists by kind, category and id', async () => {
      const entries = ['a', 'b', 'c', 'd'].map((letter) => anEntry({ text: `Quote ${letter}.` }));
      const other = anEntry({ text: 'Elsewhere.', category: 'a-other' });
      await store.add([...entries, other]);
      const byId = [...entries].sort((x, y) => (x.id < y.id ? -1 : 1));
      for (const [index, entry] of byId.entries())
        expect(await store.nth('quote', 'stoics', index)).to.deep.equal(entry);
      expect(await store.nth('quote', 'stoics', 4)).to.equal(undefined);
      expect(await store.nth('quote', 'nothing', 0)).to.equal(undefined);
      expect(await store.count('quote', 'nothing')).to.equal(0);
      expect(await store.categories('quote')).to.deep.equal([
        { category: 'a-other', count: 1 },
        { category: 'stoics', count: 4 },
      ]);
      expect(await store.list({ kind: 'quote' })).to.deep.equal([other, ...byId]);
      expect(await store.list({ category: 'a-other' })).to.deep.equal([other]);
      expect((await store.list({})).length).to.equal((await store.list({ kind: 'fact' })).length + 5);
    });

    it('deletes by id, saying whether there was one', async () => {
      const entry = anEntry({ text: 'Short-lived.' });
      await store.add([entry]);
      expect(await store.delete(entry.id)).to.equal(true);
      expect(await store.delete(entry.id)).to.equal(false);
      expect(await store.count('quote', 'stoics')).to.equal(0);
      expect(await store.categories('quote')).to.deep.equal([]);
    });
  });
}
