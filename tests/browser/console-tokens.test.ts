import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchBrowser } from '../support/browser.js';
import {
  contentWidth,
  focusedName,
  goTo,
  headingFocused,
  openConsole,
  PASSWORD,
  personWithPassword,
  screenshot,
  seriousViolations,
  signIn,
} from '../support/console.js';
import { eventually } from '../support/eventually.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

/** The row of the tokens table that names `name`. */
const rowOf = (page: Page, name: string) =>
  page.getByRole('table', { name: 'My tokens' }).getByRole('row').filter({ hasText: name });

/** Clicks one of a token's row actions. */
const act = (page: Page, name: string, action: string) =>
  rowOf(page, name).getByRole('button', { name: action, exact: true }).click();

/** Creates a token from the tokens page with these permissions; resolves with the secret the page showed. */
async function createToken(page: Page, name: string, permissions: string[]): Promise<string> {
  await page.getByRole('button', { name: 'Create a token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a token' });
  await dialog.getByLabel('Name').fill(name);
  for (const permission of permissions) await dialog.getByRole('checkbox', { name: permission, exact: true }).check();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  const secretBox = page.getByRole('dialog', { name: `The new token ${name}` });
  return secretBox.getByLabel('Secret').inputValue();
}

/** Closes the dialog that shows a secret. */
const dismissSecret = (page: Page) => page.getByRole('button', { name: 'I have copied it' }).click();

/**
 * Issue 29 §6: the tokens page, against a real server on SQLite: create with a picker of what one
 * may give, the secret shown once and copied, that secret used against the API; rotate with both
 * secrets working during the grace; disable (403 code 5) and enable; rename; delete after a
 * confirmation; paging; usage; by keyboard alone; no serious accessibility fault.
 */
describeInBrowser('browser: the console’s tokens page', function () {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    [server, browser] = await Promise.all([
      startServer({ env: { UTILITY_API_USAGE_FLUSH_MS: '200' } }),
      launchBrowser(),
    ]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A person signed in on the tokens page. */
  async function onTokensPage(permissions: string[], options: Parameters<typeof openConsole>[2] = {}) {
    const person = await personWithPassword(server, permissions);
    const opened = await openConsole(browser, server, options);
    const consoleSecret = await signIn(opened.page, person.username);
    await goTo(opened.page, 'Tokens');
    return { ...opened, person, consoleSecret };
  }

  const encrypt = (secret: string) => server.get('/api/crypto/enc?data=hello', { Authorization: `Bearer ${secret}` });

  it('creates a token of the permissions picked; its secret, shown once and copied, works against the API', async () => {
    const { page, context, refused, consoleSecret } = await onTokensPage(['Cryptography::*', 'Tokens::*']);
    const { expiresAt } = (await (
      await server.get('/api/token/info', { Authorization: `Bearer ${consoleSecret}` })
    ).json()) as { expiresAt: string };
    const signInExpiry = String(await page.evaluate(`new Date(${JSON.stringify(expiresAt)}).toLocaleString()`));
    await page.getByRole('button', { name: 'Create a token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a token' });
    // Only what this sign-in holds is offered: its wildcards and the permissions they cover.
    await dialog.locator('.permission-picker').waitFor();
    const offered = await dialog.locator('.permission-picker label').allInnerTexts();
    expect(offered).to.include.members(['Cryptography::*', 'Tokens::*', 'Cryptography::Encrypt', 'Tokens::Create']);
    expect(offered.filter((name) => !/^(Cryptography|Tokens)::/.test(name))).to.deep.equal([]);
    await dialog.getByLabel('Name').fill('deploy');
    await dialog.getByRole('checkbox', { name: 'Cryptography::Encrypt', exact: true }).check();
    // A token made in a sign-in of 8 hours cannot outlive it: longer lifetimes are not offered.
    expect(await dialog.getByLabel('Expires').locator('option').allInnerTexts()).to.deep.equal([
      `with this sign-in, ${signInExpiry}`,
      'in an hour',
    ]);
    expect(await dialog.innerText()).to.include('never outlives the token that made it');
    await dialog.getByLabel('Expires').selectOption('1h');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const secretBox = page.getByRole('dialog', { name: 'The new token deploy' });
    await secretBox.waitFor();
    expect(await secretBox.innerText()).to.include('shown once');
    const shown = await secretBox.getByLabel('Secret').inputValue();
    await secretBox.getByRole('button', { name: 'Copy' }).click();
    await secretBox.getByText('Copied.').waitFor();
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(copied).to.equal(shown);
    expect((await encrypt(copied)).status).to.equal(200);
    // Only what was picked: another permission of the family is refused.
    await expectError(await server.get('/api/crypto/dec?data=x', { Authorization: `Bearer ${copied}` }), 403, 1);
    const info = (await (await server.get('/api/token/info', { Authorization: `Bearer ${copied}` })).json()) as {
      expiresAt: string;
    };
    expect((Date.parse(info.expiresAt) - Date.now()) / 60_000).to.be.within(59, 60);
    await dismissSecret(page);
    // Gone once closed, and the list has the token.
    expect(await page.getByText(shown).count()).to.equal(0);
    await rowOf(page, 'deploy').waitFor();
    expect(await rowOf(page, 'deploy').innerText()).to.include('active');
    expect(refused).to.deep.equal([]);
    await context.close();
  });

  it('creates a token with a rate limit, a quota and client networks of its own', async () => {
    const { page, context } = await onTokensPage(['Cryptography::Encrypt', 'Tokens::*']);
    await page.getByRole('button', { name: 'Create a token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a token' });
    await dialog.getByLabel('Name').fill('limited');
    await dialog
      .getByRole('group', { name: /Rate limit/ })
      .getByLabel('Requests')
      .fill('5');
    await dialog
      .getByRole('group', { name: /Rate limit/ })
      .getByLabel('Per seconds')
      .fill('60');
    await dialog.getByRole('group', { name: /Quota/ }).getByLabel('Requests').fill('100');
    await dialog.getByRole('group', { name: /Quota/ }).getByLabel('Per').selectOption('month');
    await dialog.getByLabel(/Allowed client networks/).fill('127.0.0.0/8\n10.0.0.0/8');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const secret = await page.getByRole('dialog', { name: 'The new token limited' }).getByLabel('Secret').inputValue();
    const info = (await (await server.get('/api/token/info', { Authorization: `Bearer ${secret}` })).json()) as {
      rateLimit: unknown;
      quota: unknown;
      allowedAddresses: unknown;
    };
    expect(info.rateLimit).to.deep.equal({ requests: 5, perSeconds: 60 });
    expect(info.quota).to.deep.equal({ requests: 100, per: 'month' });
    expect(info.allowedAddresses).to.deep.equal(['127.0.0.0/8', '10.0.0.0/8']);
    await context.close();
  });

  it('offers what a sign-in holds without a wildcard too, and shows a refused creation in words with its code', async () => {
    const { page, context } = await onTokensPage(['Tokens::Read', 'Tokens::Create']);
    await page.getByRole('button', { name: 'Create a token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a token' });
    await dialog.locator('.permission-picker').waitFor();
    // Tokens::Read is checked by a use case, named by no operation of the document: held, it is offered.
    expect(await dialog.locator('.permission-picker label').allInnerTexts()).to.deep.equal([
      'Tokens::Create',
      'Tokens::Read',
    ]);
    await dialog.getByLabel('Name').fill('bad network');
    await dialog.getByLabel(/Allowed client networks/).fill('not-a-network');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).to.match(/allowedAddresses.*\(HTTP 400, code \d+\)$/);
    await context.close();
  });

  it('rotates a token: the new secret is shown once, and old and new both work during the grace', async () => {
    const { page, context } = await onTokensPage(['Cryptography::Encrypt', 'Tokens::*']);
    const old = await createToken(page, 'rotating', ['Cryptography::Encrypt']);
    await dismissSecret(page);
    await act(page, 'rotating', 'Rotate');
    const dialog = page.getByRole('dialog', { name: 'Rotate rotating' });
    await dialog.getByLabel(/Grace period/).fill('600');
    await dialog.getByRole('button', { name: 'Rotate', exact: true }).click();
    const secretBox = page.getByRole('dialog', { name: 'The rotated token rotating' });
    const renewed = await secretBox.getByLabel('Secret').inputValue();
    expect(renewed).to.not.equal(old);
    expect((await encrypt(old)).status).to.equal(200);
    expect((await encrypt(renewed)).status).to.equal(200);
    await dismissSecret(page);
    await eventually(async () => expect(await page.getByText(/rotated, works until/).count()).to.equal(1));
    await context.close();
  });

  it('disables a token (the API answers 403 code 5) and enables it again', async () => {
    const { page, context } = await onTokensPage(['Cryptography::Encrypt', 'Tokens::*']);
    const secret = await createToken(page, 'switchable', ['Cryptography::Encrypt']);
    await dismissSecret(page);
    await act(page, 'switchable', 'Disable');
    await page.getByRole('status').filter({ hasText: 'switchable is disabled.' }).waitFor();
    await expectError(await encrypt(secret), 403, 5);
    await rowOf(page, 'switchable').getByRole('button', { name: 'Enable' }).waitFor();
    expect(await rowOf(page, 'switchable').innerText()).to.include('disabled');
    await act(page, 'switchable', 'Enable');
    await page.getByRole('status').filter({ hasText: 'switchable is enabled.' }).waitFor();
    expect((await encrypt(secret)).status).to.equal(200);
    await context.close();
  });

  it('renames a token, and deletes one only once the confirmation is accepted', async () => {
    const { page, context } = await onTokensPage(['Cryptography::Encrypt', 'Tokens::*']);
    const secret = await createToken(page, 'first name', ['Cryptography::Encrypt']);
    await dismissSecret(page);
    await act(page, 'first name', 'Rename');
    const rename = page.getByRole('dialog', { name: 'Rename first name' });
    await rename.getByLabel('New name').fill('second name');
    await rename.getByRole('button', { name: 'Rename', exact: true }).click();
    await rowOf(page, 'second name').waitFor();
    await act(page, 'second name', 'Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete the token?' });
    expect(await confirm.innerText()).to.include('second name');
    // Cancel has the focus: Enter alone deletes nothing.
    expect(await focusedName(page)).to.equal('Cancel');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect((await encrypt(secret)).status).to.equal(200);
    await act(page, 'second name', 'Delete');
    await confirm.getByRole('button', { name: 'Delete the token' }).click();
    await page.getByRole('status').filter({ hasText: 'second name is deleted.' }).waitFor();
    await rowOf(page, 'second name').waitFor({ state: 'detached' });
    await expectError(await encrypt(secret), 401, 4);
    await context.close();
  });

  it('signs out when the token signed in with is deleted from the list, after a warning', async () => {
    const { page, context, consoleSecret } = await onTokensPage(['Tokens::*']);
    await act(page, 'console (this sign-in)', 'Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete the token?' });
    expect(await confirm.innerText()).to.include('you will be signed out');
    await confirm.getByRole('button', { name: 'Delete the token' }).click();
    await page.getByRole('heading', { name: 'utility-api console' }).waitFor();
    await expectError(await server.get('/api/token/info', { Authorization: `Bearer ${consoleSecret}` }), 401, 4);
    await context.close();
  });

  it('signs out even when the token signed in with was deleted elsewhere', async () => {
    const { page, context, consoleSecret } = await onTokensPage(['Tokens::*']);
    const { id } = (await (
      await server.get('/api/token/info', { Authorization: `Bearer ${consoleSecret}` })
    ).json()) as { id: string };
    expect((await server.send('DELETE', `/api/token/delete?id=${id}`, { token: consoleSecret })).status).to.equal(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'utility-api console' }).waitFor();
    await context.close();
  });

  it('pages a long list, and shows a token’s usage by operation and by status', async () => {
    const person = await personWithPassword(server, ['Cryptography::Encrypt', 'Tokens::*']);
    const secrets: string[] = [];
    for (let index = 0; index < 11; index += 1) {
      const created = await server.send('POST', '/api/token/create', {
        token: (await server.userWithToken(['*'])).secret,
        headers: { 'x-uid': person.uid },
        json: { name: `paged ${index}`, permissions: ['Cryptography::Encrypt'] },
      });
      secrets.push(((await created.json()) as { token: string }).token);
    }
    await encrypt(secrets[10]!);
    await encrypt(secrets[10]!);
    // Refused for its missing text, after the token was taken: counted as a 4xx.
    await server.get('/api/crypto/enc', { Authorization: `Bearer ${secrets[10]}` });
    const { page, context } = await openConsole(browser, server);
    await signIn(page, person.username);
    await goTo(page, 'Tokens');
    // 11 made and the console's own: 12, 10 a page.
    await page.getByText('Page 1 of 2').waitFor();
    expect(await page.getByRole('table', { name: 'My tokens' }).getByRole('row').count()).to.equal(11);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    expect(await page.getByRole('table', { name: 'My tokens' }).getByRole('row').count()).to.equal(3);
    await page.getByRole('button', { name: 'Previous' }).click();
    // The usage is written every 200 ms here: the chart shows it once written.
    await eventually(async () => {
      await act(page, 'paged 10', 'Usage');
      const chart = page.locator('.usage-chart');
      await chart.locator('canvas').waitFor();
      expect(await chart.locator('figcaption').innerText()).to.match(/: 3 requests by hour/);
    });
    const legend = await page.locator('.usage-chart .legend').innerText();
    expect(legend).to.include('GET /api/crypto/enc: 3');
    await page.getByLabel('One line per').selectOption('status');
    await eventually(async () => expect(await page.locator('.usage-chart .legend').innerText()).to.include('2xx: 2'));
    expect(await page.locator('.usage-chart .legend').innerText()).to.include('4xx: 1');
    await context.close();
  });

  it('signs in and creates a token by keyboard alone; the dialog keeps the focus and gives it back', async () => {
    const person = await personWithPassword(server, ['Cryptography::Encrypt', 'Tokens::*']);
    const { page, context } = await openConsole(browser, server);
    await page.keyboard.press('Tab');
    await page.keyboard.type(person.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    // Skip link, Sign out, Overview, Tokens.
    for (let step = 0; step < 4; step += 1) await page.keyboard.press('Tab');
    expect(await focusedName(page)).to.equal('Tokens');
    await page.keyboard.press('Enter');
    await headingFocused(page);
    // From the heading the page's focus moved to, to the create button.
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).to.equal('Create a token');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create a token' });
    await dialog.waitFor();
    expect(await focusedName(page)).to.equal('Name');
    // Tab goes round inside the dialog, never behind it.
    for (let step = 0; step < 40; step += 1) {
      await page.keyboard.press('Tab');
      const inside = await page.evaluate("document.querySelector('dialog[open]').contains(document.activeElement)");
      expect(inside, `after ${step + 1} tabs`).to.equal(true);
    }
    // Escape closes it, and the focus is back on the button that opened it.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedName(page)).to.equal('Create a token');
    await page.keyboard.press('Enter');
    await dialog.locator('.permission-picker').waitFor();
    await page.keyboard.type('by keyboard');
    // On through the picker to the box wanted.
    for (let step = 0; step < 10 && (await focusedName(page)) !== 'Cryptography::Encrypt'; step += 1)
      await page.keyboard.press('Tab');
    expect(await focusedName(page)).to.equal('Cryptography::Encrypt');
    await page.keyboard.press('Space');
    for (let step = 0; step < 30 && (await focusedName(page)) !== 'Create'; step += 1) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const secretBox = page.getByRole('dialog', { name: 'The new token by keyboard' });
    const secret = await secretBox.getByLabel('Secret').inputValue();
    expect((await encrypt(secret)).status).to.equal(200);
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 390])
      it(`has no serious accessibility fault on the list, the create dialog and the secret, ${colorScheme}, ${width} px wide`, async () => {
        const { page, context, refused } = await onTokensPage(['Cryptography::*', 'Tokens::*'], { colorScheme, width });
        await page.getByRole('table', { name: 'My tokens' }).waitFor();
        expect(await seriousViolations(page)).to.deep.equal([]);
        expect(await contentWidth(page)).to.be.at.most(width);
        await screenshot(page, `tokens-${colorScheme}-${width}`);
        await page.getByRole('button', { name: 'Create a token' }).click();
        await page.getByRole('dialog', { name: 'Create a token' }).getByLabel('Name').fill('looked at');
        expect(await seriousViolations(page)).to.deep.equal([]);
        await screenshot(page, `tokens-create-${colorScheme}-${width}`);
        await page.getByRole('dialog').getByRole('button', { name: 'Create', exact: true }).click();
        await page.getByRole('dialog', { name: 'The new token looked at' }).waitFor();
        expect(await seriousViolations(page)).to.deep.equal([]);
        await screenshot(page, `tokens-secret-${colorScheme}-${width}`);
        await dismissSecret(page);
        await act(page, 'looked at', 'Usage');
        await page.locator('.usage-chart canvas').waitFor();
        expect(await seriousViolations(page)).to.deep.equal([]);
        await screenshot(page, `tokens-usage-${colorScheme}-${width}`);
        expect(refused).to.deep.equal([]);
        await context.close();
      });
});
