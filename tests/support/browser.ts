import type { AxeResults } from 'axe-core';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium, which .ci/run installs: its headless shell where there is one (the same engine
 * without the browser around it; a console file's pages took 7.3 s of a core in it against 15.4 s
 * in `chromium --headless`, measured 2026-11-27), else the browser itself.
 */
const CHROMIUM_PROGRAMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
export const CHROMIUM = CHROMIUM_PROGRAMS.find((program) => existsSync(program)) ?? CHROMIUM_PROGRAMS[1]!;

/**
 * Each test of a page may take 3 minutes: a hang detector, not a speed check. One with four
 * accessibility scans and four screenshots took over 60 s in CI, on a machine 2.5 times slower
 * than usual with three other test processes and the type-check beside it.
 */
const BROWSER_TEST_TIMEOUT_MS = 180_000;

/**
 * `describe` where chromium is installed, `describe.skip` where it is not (npm test elsewhere than
 * CI); mocha's globals are looked up when it is called, so that a script outside mocha (npm run
 * console:screenshots) may import this file for launchBrowser.
 */
export const describeInBrowser = (title: string, suite: (this: Mocha.Suite) => void): Mocha.Suite | void =>
  (existsSync(CHROMIUM) ? describe : describe.skip)(title, function (this: Mocha.Suite) {
    this.timeout(BROWSER_TEST_TIMEOUT_MS);
    suite.call(this);
  });

/** Headless, and kept from reaching anything but loopback: this machine's network is closed. */
export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

/**
 * Every Content-Security-Policy refusal the page meets, as the page saw it and as the console
 * said it: a page whose script or style the policy refuses looks fine to a test that only clicks.
 */
export async function policyRefusalsOf(page: Page): Promise<string[]> {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|CSP violation/i.test(message.text()))
      refused.push(message.text());
  });
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));",
  });
  return refused;
}

/** Signs the reference page in with a bearer token, as a person does through "Authorize". */
export async function authorizeReference(page: Page, token: string): Promise<void> {
  await page.locator('button.authorize').first().click();
  await page.locator('.auth-container input').first().fill(token);
  await page.locator('.auth-btn-wrapper button.authorize').first().click();
  await page.locator('.auth-btn-wrapper button.btn-done').first().click();
}

/** axe-core's script, read at the first check. */
let axeSource: string | undefined;

/**
 * What the accessibility checker (axe-core) finds wrong with the page as it is, of these impacts
 * (all when none are named), each as its rule and the elements it names. axe runs in the page
 * itself, put in once per page load: @axe-core/playwright's AxeBuilder put its 560 kB script in
 * again at every check and opened a blank page to gather the results, 1.0 to 1.9 s a check of a
 * console page against 0.1 to 0.2 s here (0.5 s the first time), so that a console test of four
 * checks took 8.3 s instead of 2.5 (measured 2026-11-28). The blank page is for pages with
 * frames from other origins, which none of ours has. Only violations are gathered in full
 * (`resultTypes`): nothing else is read.
 */
export async function accessibilityViolations(page: Page, impacts?: readonly string[]): Promise<string[]> {
  if (!(await page.evaluate<boolean>("'axe' in window"))) {
    axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axeSource);
  }
  const { violations } = await page.evaluate<AxeResults>("axe.run(document, { resultTypes: ['violations'] })");
  return violations
    .filter((violation) => impacts === undefined || impacts.includes(violation.impact ?? ''))
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
