import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { authorizeReference, describeInBrowser, launchBrowser, policyRefusalsOf } from '../support/browser.js';
import { startServer, type TestServer } from '../support/http-server.js';

describeInBrowser('browser: GET /docs, the interactive reference', function () {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('loads from this server alone, lists every operation, and encrypts a text through "try it out" with a token', async () => {
    const token = await server.tokenFor(['Cryptography::*']);
    const document = (await (await server.get('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(document.paths).reduce((count, methods) => count + Object.keys(methods).length, 0);

    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => void requested.push(request.url()));
    const refusedByPolicy = await policyRefusalsOf(page);
    const served = await page.goto(`${server.baseUrl}/docs`);
    expect(served!.headers()['content-security-policy']).to.include("frame-ancestors 'none'");
    await page
      .locator('.opblock')
      .nth(operations - 1)
      .waitFor();
    expect(await page.locator('.opblock').count()).to.equal(operations);

    await authorizeReference(page, token);

    const encrypt = page.locator('.opblock-get', { has: page.locator('[data-path="/api/crypto/enc"]') });
    await encrypt.locator('.opblock-summary').first().click();
    await encrypt.locator('button.try-out__btn').click();
    await encrypt.locator('input[placeholder="data"]').fill('hello from the docs');
    await encrypt.locator('button.execute').click();
    const status = encrypt.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect((await status.innerText()).trim()).to.equal('200');
    const ciphertext = (
      await encrypt.locator('.live-responses-table tbody .response-col_description pre').first().innerText()
    ).trim();

    const decrypted = await server.get(`/api/crypto/dec?data=${encodeURIComponent(ciphertext)}`, {
      Authorization: `Bearer ${token}`,
    });
    expect(await decrypted.text()).to.equal('hello from the docs');
    expect(requested.filter((url) => !url.startsWith(`${server.baseUrl}/`) && !url.startsWith('data:'))).to.deep.equal(
      [],
    );
    expect(requested).to.include(`${server.baseUrl}/api/crypto/enc?data=hello%20from%20the%20docs`);
    expect(refusedByPolicy, 'what the Content-Security-Policy refused').to.deep.equal([]);
  });
});
