import { expect } from 'chai';
import { build } from 'esbuild';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { describeInBrowser, launchBrowser } from '../support/browser.js';
import { expectRight } from '../support/either.js';
import { startServer, type TestServer } from '../support/http-server.js';
import { ROOT } from '../support/program.js';

/** What the bundle defines in the page (its globalName); the test's own types know no DOM. */
interface BundledClient {
  readonly UtilityApiClient: typeof import('../../src/client/index.js');
}

/** Where the page that loads the client is, on the server's origin: the test serves it, the server never does. */
const PAGE_PATH = '/client-test-page';

/**
 * Issue 28 §1: utility-api/client as a browser runs it. dist/client/ (the build the package
 * ships) is bundled by esbuild for the browser, with nothing of Node's to lean on, and loaded in a
 * page of the server's origin, which calls the live server with it.
 */
describeInBrowser('browser: utility-api/client in a page of the server’s origin', function () {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  before(async () => {
    server = await startServer({ env: { UTILITY_API_STORAGE: 'memory' } });
    const bundled = await build({
      entryPoints: [join(ROOT, 'dist', 'client', 'index.js')],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'UtilityApiClient',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const script = bundled.outputFiles[0]!.text;
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.route(`${server.baseUrl}${PAGE_PATH}`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><html><head><script>${script}</script></head><body></body></html>`,
      }),
    );
    await page.goto(`${server.baseUrl}${PAGE_PATH}`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('encrypts and decrypts, reads a catalogue error, the RateLimit fields and a barcode as a Blob, with a token', async () => {
    const token = await server.tokenFor(['Cryptography::Encrypt', 'Barcode::Generate']);
    const seen = await page.evaluate(async (token) => {
      const { createClient } = (globalThis as unknown as BundledClient).UtilityApiClient;
      const api = createClient({ baseUrl: '', token, timeoutMs: 10_000 });
      const encrypted = await api.GET('/api/crypto/enc', { params: { query: { data: 'hello from a page' } } });
      const refused = await api.GET('/api/crypto/dec', { params: { query: { data: encrypted.data ?? '' } } });
      const png = await api.GET('/api/barcode/gen/{codec}', {
        params: { path: { codec: 'qrcode' }, query: { content: 'hi', format: 'png' } },
      });
      return {
        origin: (globalThis as unknown as { location: { origin: string } }).location.origin,
        encrypted: { ok: encrypted.ok, data: encrypted.data, policy: encrypted.rateLimit?.policy },
        refused: { status: refused.status, error: refused.error },
        png: png.ok ? { blob: png.data instanceof Blob, type: png.data.type, size: png.data.size } : png.status,
      };
    }, token);
    expect(seen.origin).to.equal(server.baseUrl);
    expect(seen.encrypted.ok).to.equal(true);
    expect(seen.encrypted.data).to.match(/^[A-Za-z0-9_-]+$/);
    expect(seen.encrypted.policy).to.equal('default');
    expect(seen.refused).to.deep.equal({
      status: 403,
      error: {
        code: 1,
        message: 'You are not authorized to access this resource',
        details: 'Missing permission Cryptography::Decrypt',
      },
    });
    expect(seen.png).to.deep.include({ blob: true, type: 'image/png' });
    const decrypted = await server.get(`/api/crypto/dec?data=${seen.encrypted.data}`, {
      Authorization: `Bearer ${await server.tokenFor(['Cryptography::Decrypt'])}`,
    });
    expect(await decrypted.text()).to.equal('hello from a page');
  });

  it('logs in with a password of any script (Basic in UTF-8) and answers an unreachable server as a network failure', async () => {
    const password = 'mot de passe très sûr ☕';
    expectRight(
      await server.app.useCases.usersAndTokens.createUser.execute({
        actor: OPERATOR,
        username: 'zoe',
        password,
        permissions: ['Cryptography::Encrypt'],
      }),
    );
    const seen = await page.evaluate(
      async ({ password }) => {
        const { createClient } = (globalThis as unknown as BundledClient).UtilityApiClient;
        const api = createClient({ baseUrl: '', token: { username: 'zoe', password } });
        const first = await api.GET('/api/crypto/enc', { params: { query: { data: 'a' } } });
        const second = await api.GET('/api/crypto/enc', { params: { query: { data: 'b' } } });
        const elsewhere = await createClient({ baseUrl: 'http://127.0.0.1:9', token: 't' }).GET('/livez');
        return { first: first.ok, second: second.ok, elsewhere: elsewhere.failure?.kind };
      },
      { password },
    );
    expect(seen).to.deep.equal({ first: true, second: true, elsewhere: 'network' });
  });
});
