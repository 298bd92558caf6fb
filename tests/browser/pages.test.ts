import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { accessibilityViolations, describeInBrowser, launchBrowser, policyRefusalsOf } from '../support/browser.js';
import { startServer, type TestServer } from '../support/http-server.js';

/** The link that has the keyboard's focus, by where it leads. */
const focusedLink = (page: Page) => page.locator(':focus').getAttribute('href');

/**
 * Issue 28 §2: the server's address and the change log are pages a person reads, in a real
 * browser, by keyboard alone, and an accessibility checker (axe) finds nothing wrong with them,
 * in the light and the dark scheme. SCREENSHOTS=<folder> keeps what the browser showed.
 */
describeInBrowser('browser: the home page and the change log page', function () {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const screenshot = (page: Page, name: string) =>
    process.env.SCREENSHOTS
      ? page.screenshot({ path: `${process.env.SCREENSHOTS}/${name}.png`, fullPage: true })
      : undefined;

  for (const colorScheme of ['light', 'dark'] as const)
    it(`leads from / to the reference by keyboard alone, and the checker finds nothing wrong (${colorScheme})`, async () => {
      const page = await (await browser.newContext({ colorScheme })).newPage();
      const refused = await policyRefusalsOf(page);
      await page.goto(`${server.baseUrl}/`);
      expect(await page.title()).to.equal('utility-api');
      expect(await accessibilityViolations(page)).to.deep.equal([]);
      await screenshot(page, `home-${colorScheme}`);

      const reached: (string | null)[] = [];
      for (let step = 0; step < 6; step += 1) {
        await page.keyboard.press('Tab');
        reached.push(await focusedLink(page));
      }
      expect(reached).to.deep.equal([
        '/console',
        '/docs',
        '/api/openapi.json',
        '/changelog',
        '/api/changelog',
        '/readyz',
      ]);
      // Back to the first link, and Enter follows it.
      for (let step = 0; step < 4; step += 1) await page.keyboard.press('Shift+Tab');
      expect(await focusedLink(page)).to.equal('/docs');
      await Promise.all([page.waitForURL(`${server.baseUrl}/docs`), page.keyboard.press('Enter')]);
      expect(refused).to.deep.equal([]);
      await page.context().close();
    });

  for (const colorScheme of ['light', 'dark'] as const)
    it(`shows the change log to read, and the checker finds nothing wrong (${colorScheme})`, async () => {
      const page = await (await browser.newContext({ colorScheme })).newPage();
      const refused = await policyRefusalsOf(page);
      await page.goto(`${server.baseUrl}/changelog`);
      expect(await page.locator('h1').innerText()).to.equal('What changed');
      expect(await page.locator('h2').count()).to.be.greaterThan(3);
      expect(await accessibilityViolations(page)).to.deep.equal([]);
      await screenshot(page, `changelog-${colorScheme}`);
      await page.keyboard.press('Tab');
      expect(await focusedLink(page)).to.equal('/');
      await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.keyboard.press('Enter')]);
      expect(refused).to.deep.equal([]);
      await page.context().close();
    });
});
