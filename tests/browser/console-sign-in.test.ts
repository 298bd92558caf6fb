import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { describeInBrowser, launchBrowser } from '../support/browser.js';
import {
  contentWidth,
  focusedName,
  focusedStyle,
  headingFocused,
  goTo,
  openConsole,
  PASSWORD,
  personWithPassword,
  screenshot,
  seriousViolations,
  signIn,
  submitPassword,
} from '../support/console.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

/**
 * Issue 29 §3 and §4: signing in to the console with a password or a token, the login throttle
 * shown as a wait, errors in words, the shell's navigation by permission, signing out; by keyboard
 * alone, at 390 px, and with no serious accessibility fault in the light or dark scheme.
 */
describeInBrowser('browser: signing in to the console', function () {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in with a username and password: the overview names the user, and the token is a console token of hours', async () => {
    const person = await personWithPassword(server, ['Cryptography::*', 'Tokens::Read']);
    const { page, context, refused } = await openConsole(browser, server);
    const secret = await signIn(page, person.username);
    expect(await page.locator('header').innerText()).to.include(`Signed in as ${person.username}`);
    const info = await server.get('/api/token/info', { Authorization: `Bearer ${secret}` });
    const token = (await info.json()) as { name: string; expiresAt: string; permissions: string[] };
    expect(token.name).to.equal('console');
    const hours = (Date.parse(token.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).to.be.within(7.9, 8);
    expect(await page.getByRole('main').innerText()).to.include('Cryptography::*');
    expect(refused).to.deep.equal([]);
    await context.close();
  });

  it('signs in with the email address too', async () => {
    const person = await personWithPassword(server, ['Tokens::Read']);
    const { page, context } = await openConsole(browser, server);
    await signIn(page, person.email.toUpperCase());
    await context.close();
  });

  it('shows a wrong password in words with its code, and stays on the sign-in form', async () => {
    const person = await personWithPassword(server, ['Tokens::Read']);
    const { page, context } = await openConsole(browser, server);
    await submitPassword(page, person.username, 'not the password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const said = await alert.innerText();
    expect(said).to.match(/HTTP 401, code 4\)$/);
    expect(said.length).to.be.above(30);
    expect(await page.getByLabel('Username or email').isVisible()).to.equal(true);
    await context.close();
  });

  it("shows the login throttle's 429 as a wait of so many seconds, not as an error", async () => {
    const person = await personWithPassword(server, ['Tokens::Read']);
    const { page, context } = await openConsole(browser, server);
    let wait = '';
    for (let attempt = 0; attempt < 8 && wait === ''; attempt += 1) {
      await submitPassword(page, person.username, `wrong ${attempt}`);
      await page.locator('.problem, .wait').waitFor();
      await page.getByRole('button', { name: 'Sign in', exact: true }).and(page.locator(':enabled')).waitFor();
      if (await page.getByRole('status').filter({ hasText: 'try again in' }).count())
        wait = await page.getByRole('status').filter({ hasText: 'try again in' }).innerText();
    }
    expect(wait).to.match(/^Too many attempts: try again in \d+ s\. \(.+code 25\)\)$/);
    const seconds = Number(/try again in (\d+) s/.exec(wait)![1]);
    expect(seconds).to.be.above(0);
    // Even the right password waits, and says so.
    await submitPassword(page, person.username, PASSWORD);
    await page.getByRole('status').filter({ hasText: 'try again in' }).waitFor();
    expect(await page.getByRole('alert').count()).to.equal(0);
    await context.close();
  });

  it('signs in with a pasted token, and signing out forgets it without deleting it', async () => {
    const { secret } = await server.userWithToken(['Tokens::Read', 'Tokens::Update']);
    const { page, context } = await openConsole(browser, server);
    await page.getByLabel('Token', { exact: true }).fill(secret);
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'utility-api console' }).waitFor();
    expect((await server.get('/api/token/info', { Authorization: `Bearer ${secret}` })).status).to.equal(200);
    await context.close();
  });

  it('refuses a pasted token that is no token, in words', async () => {
    const { page, context } = await openConsole(browser, server);
    await page.getByLabel('Token', { exact: true }).fill('uapi_not-a-token');
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    expect(await page.getByRole('alert').innerText()).to.match(/HTTP 401, code 4\)$/);
    await context.close();
  });

  it("signs out: the console's token is deleted, and the API refuses it (401)", async () => {
    const person = await personWithPassword(server, ['Tokens::Read']);
    const { page, context } = await openConsole(browser, server);
    const secret = await signIn(page, person.username);
    expect((await server.get('/api/token/info', { Authorization: `Bearer ${secret}` })).status).to.equal(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'utility-api console' }).waitFor();
    await expectError(await server.get('/api/token/info', { Authorization: `Bearer ${secret}` }), 401, 4);
    await context.close();
  });

  it('lists in the navigation only the pages the token may open', async () => {
    const person = await personWithPassword(server, ['Weather::Current']);
    const { page, context } = await openConsole(browser, server);
    await signIn(page, person.username);
    const links = await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link').allInnerTexts();
    // Users needs Users::Read; the audit trail shows everyone their own entries.
    expect(links).to.deep.equal(['Overview', 'Tokens', 'Audit']);
    await goTo(page, 'Tokens');
    expect(page.url()).to.match(/\/console#\/tokens$/);
    // The address opens the page it names, as a bookmark would.
    await page.reload();
    await submitPassword(page, person.username, PASSWORD);
    await page.getByRole('heading', { name: 'Tokens', level: 1 }).waitFor();
    await context.close();
  });

  it('signs in by keyboard alone: skip link, visible focus, and every page reached from the navigation', async () => {
    const person = await personWithPassword(server, ['Tokens::Read']);
    const { page, context } = await openConsole(browser, server);
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).to.equal('Username or email');
    await page.keyboard.type(person.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).to.equal('Skip to the content');
    // The focus shows: an outline of 3 px.
    expect(await focusedStyle(page, 'outline-width')).to.equal('3px');
    await page.keyboard.press('Enter');
    expect(await focusedName(page)).to.equal('Overview');
    // Back from the heading: the navigation's last link.
    await page.keyboard.press('Shift+Tab');
    expect(await focusedName(page)).to.equal('Audit');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    await headingFocused(page);
    expect(await focusedName(page)).to.equal('Audit');
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 390])
      it(`has no serious accessibility fault on the sign-in form and the overview, ${colorScheme}, ${width} px wide`, async () => {
        const person = await personWithPassword(server, ['Tokens::*', 'Cryptography::Encrypt']);
        const { page, context, refused } = await openConsole(browser, server, { colorScheme, width });
        expect(await seriousViolations(page)).to.deep.equal([]);
        await screenshot(page, `sign-in-${colorScheme}-${width}`);
        await signIn(page, person.username);
        await page.locator('.usage-chart canvas').waitFor();
        expect(await seriousViolations(page)).to.deep.equal([]);
        // Nothing wider than the screen: the page scrolls down, never sideways.
        expect(await contentWidth(page)).to.be.at.most(width);
        await screenshot(page, `overview-${colorScheme}-${width}`);
        expect(refused).to.deep.equal([]);
        await context.close();
      });
});
