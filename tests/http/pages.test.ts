import { expect } from 'chai';
import { readChangelog } from '../../src/platform/http/release.js';
import { serverForSuite } from '../support/http-server.js';

/** The href of every link of a page, in order. */
const linksOf = (html: string): string[] => [...html.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]!);

const STRICT_POLICY =
  "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

describe('http: the pages a person opens, GET / and GET /changelog', () => {
  const suite = serverForSuite();

  it('answers GET / with a page that leads to the console, the reference, the document and the change log, without a token', async () => {
    const response = await suite.server.get('/');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).to.equal(STRICT_POLICY);
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
    const html = await response.text();
    expect(linksOf(html)).to.deep.equal([
      '/console',
      '/docs',
      '/api/openapi.json',
      '/changelog',
      '/api/changelog',
      '/readyz',
    ]);
    // Every place it links to answers, without a token.
    for (const link of linksOf(html)) expect((await suite.server.get(link)).status, link).to.equal(200);
    expect(html).to.match(/<html lang="en">/);
    expect(html).to.include(`<span class="version">${readChangelog()[0]!.version}</span>`);
  });

  it('shows at GET /changelog every version of the feed, newest first, with what each added, changed and removed', async () => {
    const response = await suite.server.get('/changelog');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).to.equal(STRICT_POLICY);
    const html = await response.text();
    const entries = readChangelog();
    const versions = [...html.matchAll(/<h2 id="v([^"]+)">/g)].map((match) => match[1]);
    expect(versions).to.deep.equal(entries.map((entry) => entry.version));
    const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
    for (const entry of entries) {
      expect(html).to.include(`<time datetime="${entry.date}">${entry.date}</time>`);
      expect(html).to.include(`<p>${escape(entry.summary)}</p>`);
      for (const added of entry.added) expect(html).to.include(`<li><code>${escape(added)}</code></li>`);
      for (const changed of entry.changed) expect(html).to.include(`<li>${escape(changed)}</li>`);
    }
    // The feed is announced to browsers and readers that look for one.
    expect(html).to.include('<link rel="alternate" type="application/rss+xml"');
  });

  it('serves their style sheet from this origin, and neither page nor sheet appears in the OpenAPI document', async () => {
    const sheet = await suite.server.get('/pages.css');
    expect(sheet.status).to.equal(200);
    expect(sheet.headers.get('content-type')).to.equal('text/css; charset=utf-8');
    const document = (await (await suite.server.get('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    for (const path of ['/', '/changelog', '/pages.css']) expect(document.paths).not.to.have.property(path);
  });

  it('refuses what a page does not take, as every open route does', async () => {
    const response = await suite.server.get('/?view=all');
    expect(response.status).to.equal(400);
    expect(((await response.json()) as { code: number }).code).to.equal(7);
  });
});
