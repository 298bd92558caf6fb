import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { KnexContentStore } from '../../src/families/content/adapters/knex-content-store.js';
import { CONTENT_MIGRATIONS } from '../../src/families/content/adapters/migrations.js';
import { contentEntry, type ContentEntry } from '../../src/families/content/domain/content.js';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';

const listing = CONTENT_MIGRATIONS.find(({ name }) => name === '0021_content_listing')!;
const SEARCH_COLUMNS = ['id', 'author_key', 'search_words', 'text_length'];

/** Made-up entries, more than one batch of the migration, with and without an author, accents and astral characters. */
const entries: ContentEntry[] = Array.from({ length: 1234 }, (_, i) => {
  const entry = contentEntry(
    {
      kind: i % 2 === 0 ? 'quote' : 'fact',
      category: `made-up-${i % 3}`,
      text: `Line ${i}: a café, a “quote” and 😀 ${'Straße '.repeat(i % 4)}`,
      author: i % 5 === 0 ? null : `Søren  Émile ${i % 7}`,
    },
    i,
    'imported',
  );
  if (E.isLeft(entry)) throw new Error(JSON.stringify(entry.left));
  return entry.right;
});

for (const { name, open } of sqlDatabases) {
  describe(`migration 0021: the columns listings match by, filled in for what was stored before (${name})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await open();
    });
    afterEach(() => database.drop());

    it('fills every row (the bundled facts too) with what an insert writes, and undoes itself', async () => {
      await new KnexContentStore(database.db).add(entries);
      const written = await database.db('content_entries').select(SEARCH_COLUMNS).orderBy('id');
      expect(written.length).to.be.greaterThan(entries.length);

      await listing.down(database.db);
      expect(Object.keys((await database.db('content_entries').first())!)).to.not.include('search_words');
      await listing.up(database.db);

      expect(await database.db('content_entries').select(SEARCH_COLUMNS).orderBy('id')).to.deep.equal(written);
      // Found as a listing finds them: the author and the words folded (ø, ß, accents, spacing).
      const expected = entries.filter(
        (entry) => entry.kind === 'quote' && entry.author?.endsWith(' 3') && entry.text.includes('Straße'),
      );
      expect(expected.length).to.be.greaterThan(10);
      const found = await new KnexContentStore(database.db).page({
        kind: 'quote',
        authorKey: 'soren emile 3',
        words: ['strasse'],
        limit: 1000,
      });
      expect(found.map((entry) => entry.id).sort()).to.deep.equal(expected.map((entry) => entry.id).sort());
    });
  });
}
