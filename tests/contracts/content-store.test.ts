import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { CachedContentStore } from '../../src/families/content/adapters/cached-content-store.js';
import { readBundledFacts } from '../../src/families/content/adapters/bundled-facts.js';
import { KnexContentStore } from '../../src/families/content/adapters/knex-content-store.js';
import { MemoryContentStore } from '../../src/families/content/adapters/memory-content-store.js';
import { contentEntry, type ContentEntry, type ContentInput } from '../../src/families/content/domain/content.js';
import type { ContentPageQuery, ContentStore } from '../../src/families/content/domain/ports.js';
import { sqlDatabases } from '../support/databases.js';
import { ManualClock } from '../support/manual-clock.js';

/** Every adapter of the content store as a fresh installation has it: holding the bundled facts. */
interface Opened {
  readonly store: ContentStore;
  /** Another store on the same storage, as a second process would open it. */
  readonly again: () => ContentStore;
  readonly close: () => Promise<void>;
}
const adapters: { name: string; open: () => Promise<Opened> }[] = [
  {
    name: 'memory',
    open: async () => {
      const store = new MemoryContentStore(readBundledFacts(0));
      return { store, again: () => store, close: async () => {} };
    },
  },
  {
    name: 'cached, over memory',
    open: async () => {
      const inner = new MemoryContentStore(readBundledFacts(0));
      const store = new CachedContentStore(inner, new ManualClock(), 60_000);
      return { store, again: () => new CachedContentStore(inner, new ManualClock(), 60_000), close: async () => {} };
    },
  },
  ...sqlDatabases.map(({ name, open }) => ({
    name: `Knex on ${name}`,
    open: async () => {
      const database = await open();
      return {
        store: new KnexContentStore(database.db),
        again: () => new KnexContentStore(database.db),
        close: database.drop,
      };
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
    let again: () => ContentStore;
    let close: () => Promise<void>;
    beforeEach(async () => ({ store, again, close } = await adapter.open()));
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

    describe('listing a page at a time', () => {
      // Made up for these tests: texts and authors of no one.
      const written = [
        anEntry({ text: 'Lanterns hum when the tide is low.', author: 'Ada Quill', category: 'harbour' }),
        anEntry({ text: 'A café at dawn smells of rain.', author: 'Émile Brandt', category: 'harbour' }),
        anEntry({ text: 'Cafe owners count the gulls.', author: 'emile  BRANDT', category: 'town' }),
        anEntry({ text: 'Short.', author: 'Ada Quill', category: 'town' }),
        anEntry({ text: 'The lanterns, the lantern-keeper and the tide.', category: 'town' }),
        anEntry({ text: 'Gulls count nothing at all.', author: 'Ada Quill', category: 'town' }),
      ];
      const ids = (entries: readonly ContentEntry[]) => entries.map((entry) => entry.id);
      const byId = [...written].sort((a, b) => (a.id < b.id ? -1 : 1));
      const where = (test: (entry: ContentEntry) => boolean) => ids(byId.filter(test));
      beforeEach(async () => {
        await store.add(written);
      });

      it('gives a kind in order of id, after the id given, at most the limit', async () => {
        expect(ids(await store.page({ kind: 'quote', limit: 100 }))).to.deep.equal(ids(byId));
        expect(ids(await store.page({ kind: 'quote', limit: 2 }))).to.deep.equal(ids(byId.slice(0, 2)));
        expect(ids(await store.page({ kind: 'quote', after: byId[1]!.id, limit: 3 }))).to.deep.equal(
          ids(byId.slice(2, 5)),
        );
        expect(await store.page({ kind: 'quote', after: byId.at(-1)!.id, limit: 3 })).to.deep.equal([]);
        // Field for field, as stored.
        expect(await store.page({ kind: 'quote', limit: 1 })).to.deep.equal([byId[0]]);
        const facts = await store.page({ kind: 'fact', limit: 1000 });
        expect(facts.length).to.equal((await store.list({ kind: 'fact' })).length);
        expect(ids(facts)).to.deep.equal([...ids(facts)].sort());
      });

      it('filters by category, by author (case, accents and spacing aside), by whole words, by length', async () => {
        const page = (query: Omit<ContentPageQuery, 'kind' | 'limit'>) =>
          store.page({ kind: 'quote', limit: 100, ...query }).then(ids);
        expect(await page({ category: 'harbour' })).to.deep.equal(where((entry) => entry.category === 'harbour'));
        expect(await page({ category: 'nowhere' })).to.deep.equal([]);
        expect(await page({ authorKey: 'emile brandt' })).to.deep.equal(
          where((entry) => entry.author?.includes('mile') === true || entry.author?.includes('MILE') === true),
        );
        expect(await page({ authorKey: 'ada quill', category: 'town' })).to.have.length(2);
        // Whole words, folded: "café" and "cafe" are one word; "lantern" is not "lanterns".
        expect(await page({ words: ['cafe'] })).to.deep.equal(where((entry) => /caf/i.test(entry.text)));
        expect(await page({ words: ['lantern'] })).to.deep.equal(where((entry) => entry.text.includes('lantern-')));
        expect(await page({ words: ['lanterns', 'tide'] })).to.have.length(2);
        expect(await page({ words: ['gulls', 'count'] })).to.have.length(2);
        expect(await page({ words: ['gull'] })).to.deep.equal([]);
        expect(await page({ maxLength: 6 })).to.deep.equal(where((entry) => entry.text === 'Short.'));
        expect(await page({ minLength: 30, maxLength: 31 })).to.deep.equal(
          where((entry) => [...entry.text].length >= 30 && [...entry.text].length <= 31),
        );
        expect(
          await page({ category: 'town', authorKey: 'ada quill', words: ['gulls'], minLength: 5, maxLength: 1000 }),
        ).to.have.length(1);
        // Bundled facts are matched too: they were stored before the columns listings match by.
        const catFacts = await store.page({ kind: 'fact', category: 'cat', words: ['cats'], limit: 100 });
        expect(catFacts.length).to.be.greaterThan(0);
        for (const entry of catFacts) expect(entry.text.toLowerCase()).to.match(/\bcats\b/);
      });

      it('counts the authors of a kind by name, leaving out entries without one', async () => {
        expect(await store.authors('quote')).to.deep.equal([
          { author: 'Ada Quill', count: 3 },
          { author: 'emile  BRANDT', count: 1 },
          { author: 'Émile Brandt', count: 1 },
        ]);
        expect(await store.authors('fact')).to.deep.equal([]);
      });

      it('signs cursors with one secret, kept', async () => {
        const secret = await store.listingSecret();
        expect(secret.length).to.be.at.least(32);
        expect((await store.listingSecret()).equals(secret)).to.equal(true);
        expect((await again().listingSecret()).equals(secret)).to.equal(true);
      });
    });

    it('tells how far an add has gone, ending with every entry written', async () => {
      const many = Array.from({ length: 1200 }, (_, index) => anEntry({ text: `Made-up line number ${index}.` }));
      const heard: number[] = [];
      expect(await store.add(many, (written) => heard.push(written))).to.have.length(1200);
      expect(heard.at(-1)).to.equal(1200);
      expect(heard).to.deep.equal([...heard].sort((a, b) => a - b));
      const again: number[] = [];
      expect(await store.add(many.slice(0, 10), (written) => again.push(written))).to.deep.equal([]);
      expect(again.at(-1)).to.equal(10);
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
