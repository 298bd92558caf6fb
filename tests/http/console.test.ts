import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_FOLDER } from '../../src/platform/http/console-page.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

const CONSOLE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const A_YEAR = 'public, max-age=31536000, immutable';
/** `/console/assets/<name>-<hash>.<ext>`, as esbuild names what it writes. */
const ASSET = /^\/console\/assets\/[a-z]+-[A-Z0-9]{8}\.(js|css)$/;

/** What every answer of the console carries, whatever it is. */
function expectConsoleHeaders(response: Response): void {
  expect(response.headers.get('content-security-policy')).to.equal(CONSOLE_POLICY);
  expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
  expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
}

/** The script and style sheet the page names, in order. */
const assetsOf = (html: string): string[] =>
  [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);

/**
 * Issue 29 §1: the console is one page at /console, never kept, and its hashed assets, kept a
 * year; every answer with a policy that allows no inline code and nothing from elsewhere; off
 * with the feature switch like a family. Reads dist/console/ (the build's; the file waits for it).
 */
describe('http: the console page and its assets (GET /console)', function () {
  this.timeout(20_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server?.close());

  it('serves the page without a token, never kept, naming its hashed script and style sheet and nothing inline', async () => {
    const response = await server.get('/console');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).to.equal('no-store');
    expectConsoleHeaders(response);
    const html = await response.text();
    const assets = assetsOf(html);
    expect(assets).to.have.length(2);
    for (const asset of assets) expect(asset).to.match(ASSET);
    // No inline script or style: every script has a src, no style element, no style attribute.
    expect(html).not.to.match(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.to.match(/<style|\sstyle=/);
    expect(html).not.to.match(/https?:\/\//);
  });

  it('serves each asset the page names with its type, kept a year, under the same policy; an unknown one is 404', async () => {
    const html = await (await server.get('/console')).text();
    for (const asset of assetsOf(html)) {
      const response = await server.get(asset);
      expect(response.status, asset).to.equal(200);
      expect(response.headers.get('content-type')).to.equal(
        asset.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      expect(response.headers.get('cache-control')).to.equal(A_YEAR);
      expectConsoleHeaders(response);
      // The bytes the build wrote.
      const name = asset.split('/').pop()!;
      const served = Buffer.from(await response.arrayBuffer());
      expect(served.equals(readFileSync(join(CONSOLE_FOLDER, 'assets', name))), name).to.equal(true);
    }
    const unknown = await server.get('/console/assets/console-AAAAAAAA.js');
    expectConsoleHeaders(unknown);
    await expectError(unknown, 404, 22);
    // Neither the page nor its assets are operations of the API.
    const document = (await (await server.get('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/console'))).to.deep.equal([]);
  });

  it("bundles uPlot's style sheet with the console's own", async () => {
    const html = await (await server.get('/console')).text();
    const sheet = assetsOf(html).find((asset) => asset.endsWith('.css'))!;
    const css = await (await server.get(sheet)).text();
    expect(css).to.include('.uplot');
    expect(css).to.match(/prefers-color-scheme:\s*dark/);
  });

  it('keeps the bundle under 150 KB gzipped, script and style sheet together', () => {
    const folder = join(CONSOLE_FOLDER, 'assets');
    const gzipped = readdirSync(folder).reduce(
      (sum, name) => sum + gzipSync(readFileSync(join(folder, name)), { level: 9 }).length,
      0,
    );
    console.log(`        the console's bundle: ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped)
      .to.be.above(1024)
      .and.below(150 * 1024);
  });
});

describe('http: the console turned off (features.disabled: Console)', function () {
  this.timeout(20_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { UTILITY_API_DISABLED_FAMILIES: 'Console,Weather' } });
  });
  after(async () => server?.close());

  it('answers the page and each asset 423 code 23, with the error a family turned off answers', async () => {
    const off = await server.get('/console');
    expectConsoleHeaders(off);
    const page = await expectError(off, 423, 23);
    const family = await expectError(await server.get('/api/weather/current?lat=1&lon=2'), 423, 23);
    expect(page).to.deep.equal({
      ...family,
      details: 'The Console endpoints are turned off on this installation (features.disabled)',
    });
    const assets = readdirSync(join(CONSOLE_FOLDER, 'assets'));
    expect(assets).to.have.length.above(1);
    for (const name of assets) {
      const asset = await server.get(`/console/assets/${name}`);
      expectConsoleHeaders(asset);
      await expectError(asset, 423, 23);
    }
    // Beside the console, nothing else takes its headers.
    expect((await server.get('/consoles')).headers.get('content-security-policy')).to.equal(null);
  });

  it('leaves the console out of the home page, and serves the API as before', async () => {
    const home = await (await server.get('/')).text();
    expect(home).not.to.include('/console');
    expect(home).to.include('href="/docs"');
    const token = await server.tokenFor(['Cryptography::Encrypt']);
    expect((await server.get('/api/crypto/enc?data=hello', { Authorization: `Bearer ${token}` })).status).to.equal(200);
  });
});
