import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { API_PREFIX } from '../../src/platform/http/app.js';
import { openApiDocument } from '../../src/platform/http/openapi.js';
import { readChangelog } from '../../src/platform/http/release.js';
import { startServer, type TestServer } from '../support/http-server.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

interface FeedItem {
  title: string;
  guid: { '#text': string; '@_isPermaLink': string };
  pubDate: string;
  description: string;
}

describe('http: GET /api/changelog, the public change log', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('is an RSS 2.0 feed with one item per version, newest first, the newest the package version, for anyone', async () => {
    const response = await server.get('/api/changelog');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/rss+xml; charset=utf-8');
    const feed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'item' }).parse(
      await response.text(),
    ) as {
      rss: { '@_version': string; channel: { title: string; link: string; item: FeedItem[] } };
    };
    expect(feed.rss['@_version']).to.equal('2.0');
    expect(feed.rss.channel.link).to.equal(`${server.baseUrl}/api/changelog`);
    const entries = readChangelog();
    expect(feed.rss.channel.item.map((item) => item.title)).to.deep.equal(
      entries.map((entry) => `utility-api ${entry.version}`),
    );
    expect(entries[0]!.version).to.equal(packageVersion);
    const [newest] = feed.rss.channel.item;
    expect(newest!.guid).to.deep.equal({ '#text': `utility-api-${packageVersion}`, '@_isPermaLink': 'false' });
    expect(new Date(newest!.pubDate).toISOString().slice(0, 10)).to.equal(entries[0]!.date);
    const first = feed.rss.channel.item.find((item) => item.title === 'utility-api 0.1.0');
    expect(first!.description).to.include('Added:\n- GET /api/crypto/enc\n');
  });

  it('announces every operation the API serves, and none it no longer serves', () => {
    const document = openApiDocument(server.app.routes, API_PREFIX);
    const served = Object.entries(document.paths as Record<string, object>).flatMap(([path, operations]) =>
      Object.entries(operations as Record<string, { deprecated?: boolean }>)
        // The original service's paths are redirects to what is served, recorded as changes.
        .filter(([, operation]) => !operation.deprecated)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    // Oldest first, so that a later removal wins over an earlier addition.
    const announced = new Set<string>();
    for (const entry of [...readChangelog()].reverse()) {
      for (const operation of entry.added) announced.add(operation);
      for (const operation of entry.removed) announced.delete(operation);
    }
    expect(
      served.filter((operation) => !announced.has(operation)),
      'served but never announced',
    ).to.deep.equal([]);
    expect(
      [...announced].filter((operation) => !served.includes(operation)),
      'announced but not served',
    ).to.deep.equal([]);
  });

  it('gives the package version as the OpenAPI document’s', async () => {
    const document = (await (await server.get('/api/openapi.json')).json()) as { info: { version: string } };
    expect(document.info.version).to.equal(packageVersion);
  });
});
