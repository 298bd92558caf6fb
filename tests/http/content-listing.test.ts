import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { readFileSync } from 'node:fs';
import { BUNDLED_FACTS_FILE } from '../../src/families/content/adapters/bundled-facts.js';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

const bundled = (JSON.parse(readFileSync(BUNDLED_FACTS_FILE, 'utf8')) as { facts: { cat: string[]; dog: string[] } })
  .facts;
const OFF = {
  UTILITY_API_KANYE_URL: 'off',
  UTILITY_API_CHUCKNORRIS_URL: 'off',
  UTILITY_API_RON_SWANSON_URL: 'off',
};

interface Quote {
  readonly id: string;
  readonly quote: string;
  readonly author: string | null;
  readonly category: string;
  readonly source: string;
}
interface Fact {
  readonly id: string;
  readonly fact: string;
  readonly category: string;
  readonly source: string;
}

/** Quotes written for these tests, by made-up people: 30 in `harbour`, 12 in `town`, 3 without an author. */
const HARBOUR = Array.from({ length: 30 }, (_, i) => ({
  text: `Harbour note ${i}: the ${i % 2 === 0 ? 'lanterns' : 'gulls'} keep ${'time '.repeat(i % 5)}steady.`,
  author: i % 3 === 0 ? 'Ada Quill' : 'Émile Brandt',
}));
const TOWN = Array.from({ length: 12 }, (_, i) => ({
  text: i === 0 ? 'Short.' : `Town line ${i} about the café and its lanterns.`,
  author: i < 9 ? 'Ada Quill' : null,
}));
const csvOf = (rows: readonly { text: string; author: string | null }[]): string =>
  `text,author\n${rows.map(({ text, author }) => `"${text}",${author ?? ''}`).join('\n')}\n`;

for (const storage of ['memory', ...sqlDatabases.map((backend) => backend.name)]) {
  describe(`http: listing stored quotes and facts, a page at a time (${storage})`, () => {
    let database: TestDatabase | undefined;
    let server: TestServer;
    let token: string;
    const get = (path: string, bearer = token) => server.get(path, { Authorization: `Bearer ${bearer}` });
    const json = async <A>(path: string): Promise<A> => {
      const response = await get(path);
      expect(response.status, `${path}: ${await response.clone().text()}`).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      return (await response.json()) as A;
    };
    /** Every page of a listing, following nextCursor to the end. */
    const everyPage = async <A>(path: string, key: 'quotes' | 'facts'): Promise<A[][]> => {
      const pages: A[][] = [];
      let cursor: string | null = null;
      do {
        const separator = path.includes('?') ? '&' : '?';
        const page: Record<string, unknown> = await json(
          cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`,
        );
        expect(Object.keys(page)).to.deep.equal([key, 'nextCursor']);
        pages.push(page[key] as A[]);
        cursor = page.nextCursor as string | null;
        expect(pages.length).to.be.below(100);
      } while (cursor !== null);
      return pages;
    };

    before(async () => {
      database = await sqlDatabases.find((backend) => backend.name === storage)?.open();
      server = await startServer({ env: { ...database?.env, ...OFF } });
      const importer = server.app.useCases.content.importContent;
      for (const [category, rows] of [
        ['harbour', HARBOUR],
        ['town', TOWN],
      ] as const) {
        const report = await importer.execute('quote', category, { content: csvOf(rows), format: 'csv' });
        expect(E.isRight(report) && report.right.added).to.equal(rows.length);
      }
      const facts = await importer.execute('fact', 'sea', {
        content: 'text\n"Tides follow the moon."\n"Salt water freezes colder than fresh."\n',
        format: 'csv',
      });
      expect(E.isRight(facts)).to.equal(true);
      token = await server.tokenFor(['Quotes::*', 'Facts::*']);
    });
    after(async () => {
      await server.close();
      await database?.drop();
    });

    it('pages through every quote to the end, 20 by default, each once, nextCursor null on the last page', async () => {
      const pages = await everyPage<Quote>('/api/quotes/list', 'quotes');
      expect(pages.map((page) => page.length)).to.deep.equal([20, 20, 2]);
      const quotes = pages.flat();
      expect(new Set(quotes.map((quote) => quote.id)).size).to.equal(42);
      expect(quotes.map((quote) => quote.quote).sort()).to.deep.equal(
        [...HARBOUR, ...TOWN].map((row) => row.text).sort(),
      );
      expect(Object.keys(quotes[0]!)).to.deep.equal(['id', 'quote', 'author', 'category', 'source']);
      expect(quotes.filter((quote) => quote.author === null)).to.have.length(3);
      // A stable order: the same pages again, whatever limit cuts them.
      expect((await everyPage<Quote>('/api/quotes/list?limit=7', 'quotes')).flat()).to.deep.equal(quotes);
      expect((await everyPage<Quote>('/api/quotes/list?limit=100', 'quotes')).map((page) => page.length)).to.deep.equal(
        [42],
      );
    });

    it('filters quotes by tag, author, words and length, and pages through what passes', async () => {
      const all = (path: string) => everyPage<Quote>(path, 'quotes').then((pages) => pages.flat());
      expect((await all('/api/quotes/list?tag=town')).map((quote) => quote.category)).to.deep.equal(
        Array(12).fill('town'),
      );
      // Letter case, accents and spacing of the author do not count.
      const emile = await all('/api/quotes/list?author=emile%20%20brandt&limit=3');
      expect(emile).to.have.length(20);
      expect(new Set(emile.map((quote) => quote.author))).to.deep.equal(new Set(['Émile Brandt']));
      expect(await all('/api/quotes/list?author=Ada%20Quill&tag=town')).to.have.length(9);
      // Whole words, case and accents aside: "CAFE" finds "café"; "lantern" is not "lanterns".
      expect(await all('/api/quotes/list?query=CAFE')).to.have.length(11);
      expect(await all('/api/quotes/list?query=lantern')).to.deep.equal([]);
      const both = await all('/api/quotes/list?query=gulls%20steady&limit=4');
      expect(both).to.have.length(15);
      for (const quote of both) expect(quote.quote).to.include('gulls').and.to.include('steady');
      expect((await all('/api/quotes/list?maxLength=6')).map((quote) => quote.quote)).to.deep.equal(['Short.']);
      const lengths = (await all('/api/quotes/list?minLength=40&maxLength=50')).map((quote) => [...quote.quote].length);
      expect(lengths.length).to.be.greaterThan(0);
      for (const length of lengths) expect(length).to.be.within(40, 50);
      expect(await json('/api/quotes/list?tag=nowhere')).to.deep.equal({ quotes: [], nextCursor: null });
    });

    it('lists facts, the bundled ones too, by category and words', async () => {
      const facts = (await everyPage<Fact>('/api/facts/list?limit=100', 'facts')).flat();
      expect(facts).to.have.length(bundled.cat.length + bundled.dog.length + 2);
      expect(Object.keys(facts[0]!)).to.deep.equal(['id', 'fact', 'category', 'source']);
      const sea = await json<{ facts: Fact[] }>('/api/facts/list?category=sea');
      expect(sea.facts.map((fact) => fact.fact).sort()).to.deep.equal([
        'Salt water freezes colder than fresh.',
        'Tides follow the moon.',
      ]);
      const dogs = (await everyPage<Fact>('/api/facts/list?category=dog&limit=10', 'facts')).flat();
      expect(dogs.map((fact) => fact.fact).sort()).to.deep.equal([...bundled.dog].sort());
      expect((await json<{ facts: Fact[] }>('/api/facts/list?query=moon%20tides')).facts).to.have.length(1);
    });

    it('counts the authors and tags of quotes and the categories of facts', async () => {
      expect(await json('/api/quotes/authors')).to.deep.equal({
        authors: [
          { name: 'Ada Quill', count: 10 + 9 },
          { name: 'Émile Brandt', count: 20 },
        ],
      });
      expect(await json('/api/quotes/tags')).to.deep.equal({
        tags: [
          { name: 'harbour', count: 30 },
          { name: 'town', count: 12 },
        ],
      });
      expect(await json('/api/facts/categories')).to.deep.equal({
        categories: [
          { name: 'cat', count: bundled.cat.length },
          { name: 'dog', count: bundled.dog.length },
          { name: 'sea', count: 2 },
        ],
      });
    });

    it('refuses a cursor it did not make, or made for another listing, and malformed filters, with 400 code 7', async () => {
      const first = await json<{ nextCursor: string }>('/api/quotes/list?tag=harbour&limit=5');
      // The same listing goes on.
      expect(
        (await json<{ quotes: Quote[] }>(`/api/quotes/list?tag=harbour&limit=5&cursor=${first.nextCursor}`)).quotes,
      ).to.have.length(5);
      // Another listing, or another kind, refuses it.
      for (const path of [
        `/api/quotes/list?tag=town&cursor=${first.nextCursor}`,
        `/api/quotes/list?cursor=${first.nextCursor}`,
        `/api/facts/list?cursor=${first.nextCursor}`,
      ]) {
        const refused = await expectError(await get(path), 400, 7);
        expect(refused.details).to.include('cursor');
      }
      const [encoded, signature] = first.nextCursor.split('.');
      const forged = `${Buffer.from('0000000000000000').toString('base64url')}.${signature}`;
      const alteredSignature = `${encoded}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
      for (const cursor of [forged, alteredSignature, 'x', 'a.b.c'])
        await expectError(await get(`/api/quotes/list?tag=harbour&cursor=${encodeURIComponent(cursor)}`), 400, 7);

      for (const query of [
        'limit=0',
        'limit=101',
        'limit=ten',
        'minLength=0',
        'maxLength=1001',
        'minLength=50&maxLength=10',
        'query=%21%21%21',
        'query=a%20b%20c%20d%20e%20f%20g%20h%20i%20j%20k',
        `query=${'x'.repeat(201)}`,
        'query=%20',
        'tag=Not%20A%20Tag',
        'author=%20',
        `author=${'y'.repeat(201)}`,
        'category=town',
        'limit=1&limit=2',
      ]) {
        const refused = await expectError(await get(`/api/quotes/list?${query}`), 400, 7);
        expect(refused.details, query).to.be.a('string');
      }
      // Facts have no author; their category is `category`, not `tag`.
      await expectError(await get('/api/facts/list?author=Ada%20Quill'), 400, 7);
      await expectError(await get('/api/facts/list?tag=sea'), 400, 7);
      await expectError(await get('/api/facts/categories?limit=3'), 400, 7);
    });

    it('picks a random quote or fact of the category asked; 404 code 22 for one that holds none', async () => {
      for (let i = 0; i < 6; i++) {
        expect(await json('/api/quotes/random?category=town')).to.include({ category: 'town' });
        expect(await json('/api/facts/random?category=sea')).to.include({ category: 'sea' });
      }
      expect(await (await get('/api/facts/random?category=dog&type=text')).text()).to.be.oneOf(bundled.dog);
      const unknown = await expectError(await get('/api/quotes/random?category=nowhere'), 404, 22);
      expect(unknown.details).to.include('nowhere');
      await expectError(await get('/api/facts/random?category=nowhere&type=xml'), 404, 22);
      await expectError(await get('/api/quotes/random?category=Not%20One'), 400, 7);
      // Without a category, still a random one among those stored.
      expect(['harbour', 'town']).to.include((await json<Quote>('/api/quotes/random')).category);
    });

    it('needs Quotes::List or Facts::List: the random permissions do not list', async () => {
      const randomOnly = await server.tokenFor(['Quotes::Random', 'Facts::Random']);
      for (const path of [
        '/api/quotes/list',
        '/api/quotes/authors',
        '/api/quotes/tags',
        '/api/facts/list',
        '/api/facts/categories',
      ])
        await expectError(await get(path, randomOnly), 403, 1);
      const quotesOnly = await server.tokenFor(['Quotes::List']);
      for (const path of ['/api/quotes/list', '/api/quotes/authors', '/api/quotes/tags'])
        expect((await get(path, quotesOnly)).status, path).to.equal(200);
      await expectError(await get('/api/facts/list', quotesOnly), 403, 1);
      await expectError(await get('/api/quotes/random', quotesOnly), 403, 1);
      const factsOnly = await server.tokenFor(['Facts::List']);
      expect((await get('/api/facts/categories', factsOnly)).status).to.equal(200);
      await expectError(await get('/api/quotes/tags', factsOnly), 403, 1);
      await expectError(await server.get('/api/quotes/list'), 401, 3);
    });
  });
}
