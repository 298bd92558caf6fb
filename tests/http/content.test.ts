import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parse as parseYaml } from 'yaml';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUNDLED_FACTS_FILE } from '../../src/families/content/adapters/bundled-facts.js';
import {
  CHUCK_NORRIS_FACT,
  KANYE_QUOTE,
  RON_SWANSON_QUOTE,
  contentUpstreamsAt,
  startContentFixture,
  type ContentFixture,
} from '../support/content-fixture.js';
import { startFixtureServer } from '../support/fixture-server.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';
import { SeededRandomness } from '../support/seeded-randomness.js';

const bundled = (JSON.parse(readFileSync(BUNDLED_FACTS_FILE, 'utf8')) as { facts: { cat: string[]; dog: string[] } })
  .facts;
const FACT_KEYS = ['id', 'fact', 'category', 'source'];
const QUOTE_KEYS = ['id', 'quote', 'author', 'category', 'source'];

describe('http: facts and quotes (bundled facts, loopback upstreams)', () => {
  let upstreams: ContentFixture;
  let server: TestServer;
  let token: string;

  /** A fresh server, and so an empty store but for the bundled facts, over the fixture. */
  async function serve(env: Record<string, string> = {}): Promise<void> {
    await server?.close();
    server = await startServer({
      env: { ...contentUpstreamsAt(upstreams), ...env },
      overrides: { content: { timeoutMs: 150, failureTtlMs: 600_000, backoffMs: 600_000 } },
      randomness: new SeededRandomness('content'),
    });
    token = await server.tokenFor(['Facts::*', 'Quotes::*']);
    upstreams.resetCounts();
  }
  const get = (path: string, headers: Record<string, string> = {}) =>
    server.get(path, { Authorization: `Bearer ${token}`, ...headers });

  beforeEach(async () => {
    upstreams = await startContentFixture();
    await serve();
  });
  afterEach(async () => {
    await server.close();
    await upstreams.close();
  });

  it('answers cat and dog facts of our own, offline, chosen at random', async () => {
    upstreams.behaviour = 'down';
    for (const category of ['cat', 'dog'] as const) {
      const seen = new Set<string>();
      for (let i = 0; i < 8; i++) {
        const response = await get(`/api/facts/${category}`);
        expect(response.status).to.equal(200);
        expect(response.headers.get('x-cache')).to.equal(null);
        const body = (await response.json()) as Record<string, string>;
        expect(Object.keys(body)).to.deep.equal(FACT_KEYS);
        expect(body).to.include({ category, source: 'utility-api' });
        expect(body.id).to.match(/^[0-9a-f]{16}$/);
        expect(bundled[category]).to.include(body.fact);
        seen.add(body.fact!);
      }
      expect(seen.size, `distinct ${category} facts in 8 draws`).to.be.greaterThan(1);
    }
    expect(upstreams.calls).to.deep.equal([]);
  });

  it('answers in the format `type` names, else the Accept header’s, else JSON; errors are always JSON', async () => {
    // The seeded randomness is the same each time a server starts: every format is asked of a fresh one.
    const inFormat = async (query: string, headers: Record<string, string> = {}) => {
      await serve();
      const response = await get(`/api/facts/cat${query}`, headers);
      expect(response.status).to.equal(200);
      return { type: response.headers.get('content-type'), body: await response.text() };
    };
    await serve();
    const first = (await (await get('/api/facts/cat')).json()) as Record<string, string>;

    const xml = await inFormat('?type=xml');
    expect(xml.type).to.equal('application/xml; charset=utf-8');
    expect(XMLValidator.validate(xml.body)).to.equal(true);
    expect((new XMLParser().parse(xml.body) as { fact: unknown }).fact).to.deep.equal(first);

    const yaml = await inFormat('', { Accept: 'application/yaml' });
    expect(yaml.type).to.equal('application/yaml; charset=utf-8');
    expect(parseYaml(yaml.body)).to.deep.equal(first);

    expect(await inFormat('?type=text')).to.deep.equal({ type: 'text/plain; charset=utf-8', body: first.fact });
    expect((await inFormat('', { Accept: 'text/html, application/xml;q=0.9, */*;q=0.1' })).type).to.equal(
      'application/xml; charset=utf-8',
    );
    expect((await inFormat('', { Accept: 'text/*;q=0.5, application/yaml;q=0.4' })).type).to.equal(
      'text/plain; charset=utf-8',
    );
    // `type` wins over Accept; an Accept naming nothing offered gets JSON.
    expect((await inFormat('?type=json', { Accept: 'application/xml' })).type).to.equal(
      'application/json; charset=utf-8',
    );
    expect((await inFormat('', { Accept: 'text/html, image/png' })).type).to.equal('application/json; charset=utf-8');
    expect((await inFormat('', { Accept: 'application/xml;q=0' })).type).to.equal('application/json; charset=utf-8');

    const refused = await expectError(await get('/api/facts/cat?type=html', { Accept: 'application/xml' }), 400, 7);
    expect(refused.details).to.include('type');
    await expectError(await get('/api/facts/cat?type=xml&type=yaml'), 400, 7);
    await expectError(await server.get('/api/facts/cat?type=xml', { Accept: 'application/xml' }), 401, 3);
  });

  it('asks chucknorris.io on every request, keeps what it answers and serves it as stale when it fails', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await get('/api/facts/chucknorris');
      expect(response.status).to.equal(200);
      expect(response.headers.get('x-cache')).to.equal('fresh');
      const body = (await response.json()) as Record<string, string>;
      expect(Object.keys(body)).to.deep.equal(FACT_KEYS);
      expect(body).to.include({ fact: CHUCK_NORRIS_FACT, category: 'chucknorris', source: 'api.chucknorris.io' });
    }
    // No TTL for a random endpoint: each request asked, the second one too.
    expect(upstreams.calls).to.deep.equal(['/jokes/random', '/jokes/random']);

    upstreams.behaviour = 'error';
    const stale = await get('/api/facts/chucknorris?type=yaml');
    expect(stale.status).to.equal(200);
    expect(stale.headers.get('x-cache')).to.equal('stale');
    expect(parseYaml(await stale.text())).to.include({ fact: CHUCK_NORRIS_FACT });

    // What was received counts among the facts: random picks among cat, dog and chucknorris.
    const categories = new Set<string>();
    for (let i = 0; i < 12; i++)
      categories.add(((await (await get('/api/facts/random')).json()) as { category: string }).category);
    expect([...categories].sort()).to.deep.equal(['cat', 'chucknorris', 'dog']);
  });

  it('answers 502/29 when an upstream fails with nothing stored, remembering the failure; 504/30 on its deadline', async () => {
    upstreams.behaviour = 'down';
    const down = await expectError(await get('/api/facts/chucknorris'), 502, 29);
    expect(down.details).to.include('Chuck Norris');
    await expectError(await get('/api/facts/chucknorris'), 502, 29);
    // The failure is remembered: a dead upstream costs one call, not one per request.
    expect(upstreams.calls).to.deep.equal(['/jokes/random']);

    upstreams.behaviour = 'garbage';
    await expectError(await get('/api/quotes/ronswanson'), 502, 29);
    upstreams.behaviour = 'slow';
    await expectError(await get('/api/quotes/kanye', { Accept: 'application/xml' }), 504, 30);
  });

  it('refuses an upstream text XML cannot carry, escaped or as bytes that are not UTF-8, as a malformed answer (502/29), storing nothing', async () => {
    const escaped = await startFixtureServer({
      recordings: {
        '/jokes/random': { body: '{"value":"A bell \\u0007 rings"}' },
        '/': { body: '{"quote":"Not a character: \\uffff"}' },
        '/v2/quotes': { body: '["Half a pair \\ud83d"]' },
      },
    });
    // Latin-1 bytes where UTF-8 was promised: read as text they would have become U+FFFD unseen.
    const latin1 = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(Buffer.concat([Buffer.from('{"quote":"na'), Buffer.of(0xef), Buffer.from('ve"}')])),
    );
    await new Promise<void>((resolve) => latin1.listen(0, '127.0.0.1', resolve));
    try {
      await serve(contentUpstreamsAt(escaped));
      for (const path of ['/api/facts/chucknorris', '/api/quotes/kanye', '/api/quotes/ronswanson'])
        await expectError(await get(path), 502, 29);
      await serve({ UTILITY_API_KANYE_URL: `http://127.0.0.1:${(latin1.address() as AddressInfo).port}` });
      await expectError(await get('/api/quotes/kanye'), 502, 29);
      await expectError(await get('/api/quotes/random'), 404, 22);
    } finally {
      await escaped.close();
      latin1.closeAllConnections();
      await new Promise((resolve) => latin1.close(resolve));
    }
  });

  it('answers Kanye West and Ron Swanson quotes, and random quotes among those received', async () => {
    const nothing = await expectError(await get('/api/quotes/random'), 404, 22);
    expect(nothing.details).to.include('npx utility-api content import');

    const kanye = await get('/api/quotes/kanye');
    expect(kanye.headers.get('x-cache')).to.equal('fresh');
    const kanyeBody = (await kanye.json()) as Record<string, string>;
    expect(Object.keys(kanyeBody)).to.deep.equal(QUOTE_KEYS);
    expect(kanyeBody).to.include({
      quote: KANYE_QUOTE,
      author: 'Kanye West',
      category: 'kanye',
      source: 'api.kanye.rest',
    });
    const ron = await get('/api/quotes/ronswanson?type=text');
    expect(await ron.text()).to.equal(`${RON_SWANSON_QUOTE} — Ron Swanson`);

    const quotes = new Set<string>();
    for (let i = 0; i < 10; i++)
      quotes.add(((await (await get('/api/quotes/random')).json()) as { quote: string }).quote);
    expect([...quotes].sort()).to.deep.equal([KANYE_QUOTE, RON_SWANSON_QUOTE].sort());
  });

  it('answers from the store alone for an upstream turned off, 404/22 when it holds none', async () => {
    await serve({ UTILITY_API_KANYE_URL: 'off' });
    const off = await expectError(await get('/api/quotes/kanye'), 404, 22);
    expect(off.details).to.include('turned off');
    expect(upstreams.calls).to.deep.equal([]);
  });

  it('needs the permission of each endpoint', async () => {
    const catsOnly = await server.tokenFor(['Facts::Cat']);
    expect((await server.get('/api/facts/cat', { Authorization: `Bearer ${catsOnly}` })).status).to.equal(200);
    for (const path of [
      '/api/facts/dog',
      '/api/facts/chucknorris',
      '/api/facts/random',
      '/api/quotes/random',
      '/api/quotes/kanye',
      '/api/quotes/ronswanson',
    ]) {
      await expectError(await server.get(path, { Authorization: `Bearer ${catsOnly}` }), 403, 1);
    }
  });
});
