import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { describeInBrowser, launchBrowser } from '../support/browser.js';
import {
  contentWidth,
  focusedName,
  goTo,
  openConsole,
  personWithPassword,
  screenshot,
  seriousViolations,
  signIn,
} from '../support/console.js';
import { expectRight } from '../support/either.js';
import { eventually } from '../support/eventually.js';
import { startServer, type TestServer } from '../support/http-server.js';

const entriesOf = (page: Page) => page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');

/** The actions of the entries shown, in their order. */
const actionsShown = (page: Page): Promise<string[]> => entriesOf(page).locator('.entry-head code').allInnerTexts();

/** Fills the filters given and applies them, as a person does. */
async function filter(page: Page, fields: { target?: string; actor?: string; action?: string; from?: string }) {
  if (fields.target !== undefined) await page.getByLabel(/^Target/).fill(fields.target);
  if (fields.actor !== undefined) await page.getByLabel(/^Actor/).fill(fields.actor);
  if (fields.action !== undefined) await page.getByRole('combobox', { name: /^Action/ }).selectOption(fields.action);
  if (fields.from !== undefined) await page.getByLabel(/^From/).fill(fields.from);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
}

/**
 * Issue 29 §4: the audit page against a real server on SQLite: everybody's entries with
 * Audit::Read and one's own without, filtered by actor, target, action and time, a page at a
 * time, each change before and after; a refused filter in words; no serious accessibility fault,
 * light and dark, 1280 and 390 px.
 */
describeInBrowser('browser: the console’s audit page', function () {
  let server: TestServer;
  let browser: Browser;
  let root: string;
  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    root = await server.tokenFor(['*']);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const someone = async (firstName: string) =>
    expectRight(
      await server.app.useCases.usersAndTokens.createUser.execute({
        actor: OPERATOR,
        firstName,
        lastName: 'Audited',
        email: `${firstName.toLowerCase()}@example.com`,
      }),
    );

  const changeEmail = (uid: string, email: string) =>
    server.send('PATCH', '/api/user/update', { token: root, headers: { 'x-uid': uid }, json: { email } });

  async function onAuditPage(permissions: string[], options: Parameters<typeof openConsole>[2] = {}) {
    const person = await personWithPassword(server, permissions);
    const opened = await openConsole(browser, server, options);
    const consoleSecret = await signIn(opened.page, person.username);
    await goTo(opened.page, 'Audit');
    return { ...opened, person, consoleSecret };
  }

  it('shows everybody’s entries with Audit::Read, filtered by target, each change before and after', async () => {
    const user = await someone('Emmeline');
    expect((await changeEmail(user.uid, 'emmeline.new@example.com')).status).to.equal(200);
    const { page, context, refused } = await onAuditPage(['Audit::Read']);
    await filter(page, { target: user.uid });
    await eventually(async () => expect(await actionsShown(page)).to.deep.equal(['user.update', 'user.create']));
    const update = entriesOf(page).nth(0);
    expect(await update.getByRole('table', { name: 'What changed' }).locator('tbody tr').allInnerTexts()).to.deep.equal(
      ['email\temmeline@example.com\temmeline.new@example.com'],
    );
    // Done through the API by the root token's user, whose name the entry gives.
    expect(await update.innerText()).to.match(/By\s+user\d+ \(through the API/);
    expect(refused).to.deep.equal([]);
    await context.close();
  });

  it('shows only my own entries without Audit::Read', async () => {
    const stranger = await someone('Strangely');
    await changeEmail(stranger.uid, 'strangely.new@example.com');
    const { page, context, person, consoleSecret } = await onAuditPage(['Tokens::Read']);
    // The sign-in itself: the password checked and the console's token made, its expiry a date as the page writes them.
    await eventually(async () =>
      expect(await actionsShown(page)).to.include.members(['login.password', 'token.create']),
    );
    const { expiresAt } = (await (
      await server.get('/api/token/info', { Authorization: `Bearer ${consoleSecret}` })
    ).json()) as { expiresAt: string };
    const expiry = String(await page.evaluate(`new Date(${JSON.stringify(expiresAt)}).toLocaleString()`));
    const made = entriesOf(page).filter({ has: page.locator('.entry-head code', { hasText: 'token.create' }) });
    expect(await made.getByRole('table', { name: 'What changed' }).locator('tbody tr').allInnerTexts()).to.include(
      `expiresAt\tnone\t${expiry}`,
    );
    expect(await page.getByRole('main').innerText()).to.include('Audit::Read shows everybody’s');
    const shown = await page.getByRole('list', { name: 'Audit entries' }).innerText();
    expect(shown).to.include(person.username);
    expect(shown).to.not.include(stranger.username);
    // Asking for the stranger's entries finds none of them.
    await filter(page, { target: stranger.uid });
    await page.getByText('No entry matches.').waitFor();
    await context.close();
  });

  it('filters by action, by actor, by time, and from an entry’s own names; clears the filters', async () => {
    const user = await someone('Filterina');
    await changeEmail(user.uid, 'filterina.new@example.com');
    const { page, context } = await onAuditPage(['Audit::Read']);
    await filter(page, { action: 'user.update' });
    await eventually(async () => {
      const actions = await actionsShown(page);
      expect(actions).to.not.deep.equal([]);
      expect(new Set(actions)).to.deep.equal(new Set(['user.update']));
    });
    // An entry's own target and actor are filters a click away.
    const about = entriesOf(page).filter({ hasText: user.username }).first();
    await about.getByRole('button', { name: 'Only on this user' }).click();
    await eventually(async () => expect(await actionsShown(page)).to.deep.equal(['user.update']));
    expect(await page.getByLabel(/^Target/).inputValue()).to.equal(user.uid);
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await eventually(async () => expect(new Set(await actionsShown(page)).size).to.be.greaterThan(1));
    // Entries from a day to come: none yet.
    await filter(page, { from: '2099-01-01T00:00' });
    await page.getByText('No entry matches.').waitFor();
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await entriesOf(page).first().waitFor();
    // The email was changed by the root token's user: only what they did is shown once asked.
    const byRoot = entriesOf(page)
      .filter({ hasText: user.username })
      .first()
      .getByRole('button', { name: /^Only by / });
    const rootName = (await byRoot.innerText()).replace(/^Only by /, '');
    await byRoot.click();
    await eventually(async () => {
      const bys = await entriesOf(page).locator('dl dd:nth-of-type(1)').allInnerTexts();
      expect(bys).to.not.deep.equal([]);
      for (const by of bys) expect(by).to.match(new RegExp(`^${rootName} \\(through the API`));
    });
    await context.close();
  });

  it('filters by keyboard alone', async () => {
    const user = await someone('Keyes');
    await changeEmail(user.uid, 'keyes.new@example.com');
    const { page, context } = await onAuditPage(['Audit::Read']);
    await entriesOf(page).first().waitFor();
    // From the heading the page's focus moved to: the actor, then the target; Enter applies.
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).to.match(/^Actor/);
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).to.match(/^Target/);
    await page.keyboard.type(user.uid);
    await page.keyboard.press('Enter');
    await eventually(async () => expect(await actionsShown(page)).to.deep.equal(['user.update', 'user.create']));
    await context.close();
  });

  it('pages through a long trail, and shows a refused filter in words with its code', async () => {
    for (let index = 0; index < 22; index += 1) await someone(`Pagination${index}`);
    const { page, context } = await onAuditPage(['Audit::Read']);
    await filter(page, { action: 'user.create' });
    await eventually(async () => expect(await actionsShown(page)).to.have.length(20));
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(/^Page 2/).waitFor();
    await eventually(async () => expect((await actionsShown(page)).length).to.be.within(2, 20));
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1', { exact: true }).waitFor();
    // Longer than any uid or token id: the API refuses the query, and the page says so.
    await filter(page, { target: 'x'.repeat(65) });
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).to.match(/target.*\(HTTP 400, code 7\)$/);
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 390])
      it(`has no serious accessibility fault, ${colorScheme}, ${width} px wide`, async () => {
        const user = await someone(`Axe${colorScheme}${width}`);
        await changeEmail(user.uid, `axe.${colorScheme}${width}@example.com`);
        const { page, context, refused } = await onAuditPage(['Audit::Read'], { colorScheme, width });
        await page.getByRole('table', { name: 'What changed' }).first().waitFor();
        expect(await seriousViolations(page)).to.deep.equal([]);
        expect(await contentWidth(page)).to.be.at.most(width);
        await screenshot(page, `audit-${colorScheme}-${width}`);
        expect(refused).to.deep.equal([]);
        await context.close();
      });
});
