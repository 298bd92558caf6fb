import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchBrowser } from '../support/browser.js';
import {
  contentWidth,
  goTo,
  openConsole,
  personWithPassword,
  screenshot,
  seriousViolations,
  signIn,
} from '../support/console.js';
import { eventually } from '../support/eventually.js';
import { startServer, type TestServer } from '../support/http-server.js';
import { startSmtpFixture, type SmtpFixture } from '../support/smtp-fixture.js';

const messages = (page: Page, caption: string) => page.getByRole('table', { name: caption });
const rowOf = (page: Page, caption: string, subject: string) =>
  messages(page, caption).getByRole('row').filter({ hasText: subject });

/**
 * Issue 29 §6: the mail page, against a real server on SQLite delivering to an SMTP server on
 * loopback: a message sent through the API from the test is listed with its status and its
 * recipients' fate; a sender sees their own, a holder of Mail::Read everyone's; a filter by
 * status; paging by the API's cursor; no serious accessibility fault.
 */
describeInBrowser('browser: the console’s mail page', function () {
  let server: TestServer;
  let browser: Browser;
  let smtp: SmtpFixture;
  before(async () => {
    smtp = await startSmtpFixture();
    [server, browser] = await Promise.all([
      startServer({
        env: { UTILITY_API_SMTP_URL: smtp.url },
        overrides: { mail: { pollIntervalMs: 20, retryBaseMs: 40, retryMaxMs: 80 } },
      }),
      launchBrowser(),
    ]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  /** Sends a message through the API with `secret`; resolves with its id. */
  async function send(secret: string, mail: { to: string | string[]; subject: string }): Promise<string> {
    const answer = await server.send('POST', '/api/mail/send', {
      token: secret,
      json: { ...mail, content: 'Hello from **the test**' },
    });
    expect(answer.status).to.equal(202);
    return ((await answer.json()) as { id: string }).id;
  }

  async function onMailPage(permissions: string[], options: Parameters<typeof openConsole>[2] = {}) {
    const person = await personWithPassword(server, permissions);
    const opened = await openConsole(browser, server, options);
    const consoleSecret = await signIn(opened.page, person.username);
    return { ...opened, person, consoleSecret };
  }

  it('lists a message sent through the API with its status, and each recipient’s fate', async () => {
    const { page, context, refused, consoleSecret } = await onMailPage(['Mail::Send']);
    smtp.recipientScript.set('nobody@example.com', [{ code: 550, message: '5.1.1 No such user' }]);
    await send(consoleSecret, { to: ['ada@example.com', 'nobody@example.com'], subject: 'Quarterly figures' });
    await eventually(() => expect(smtp.received).to.have.length.greaterThan(0));
    await goTo(page, 'Mail');
    const caption = 'My messages';
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      expect(await rowOf(page, caption, 'Quarterly figures').innerText()).to.match(/\tsent /);
    });
    const row = await rowOf(page, caption, 'Quarterly figures').innerText();
    expect(row).to.include('ada@example.com, nobody@example.com');
    await rowOf(page, caption, 'Quarterly figures')
      .getByRole('button', { name: /^Recipients/ })
      .click();
    const recipients = page.getByRole('table', { name: 'Recipients' });
    await recipients.waitFor();
    expect(await recipients.getByRole('row').filter({ hasText: 'ada@example.com' }).innerText()).to.include(
      'delivered',
    );
    const refusedRow = await recipients.getByRole('row').filter({ hasText: 'nobody@example.com' }).innerText();
    expect(refusedRow).to.include('refused').and.include('No such user');
    expect(refused).to.deep.equal([]);
    await context.close();
  });

  it('shows a sender their own messages, and a holder of Mail::Read everyone’s', async () => {
    const sender = await onMailPage(['Mail::Send']);
    const other = await server.tokenFor(['Mail::Send']);
    await send(sender.consoleSecret, { to: 'grace@example.com', subject: 'Mine alone' });
    await send(other, { to: 'grace@example.com', subject: 'Somebody else’s' });
    await goTo(sender.page, 'Mail');
    await rowOf(sender.page, 'My messages', 'Mine alone').waitFor();
    expect(await messages(sender.page, 'My messages').innerText()).to.not.include('Somebody else’s');
    await sender.context.close();

    const reader = await onMailPage(['Mail::Read']);
    await goTo(reader.page, 'Mail');
    const caption = 'Everyone’s messages';
    await rowOf(reader.page, caption, 'Mine alone').waitFor();
    await rowOf(reader.page, caption, 'Somebody else’s').waitFor();
    await reader.context.close();

    const neither = await onMailPage(['Tokens::*']);
    const links = await neither.page
      .getByRole('navigation', { name: 'Console pages' })
      .getByRole('link')
      .allInnerTexts();
    expect(links).to.not.include('Mail');
    await neither.context.close();
  });

  it('filters by status, and pages by the API’s cursor', async () => {
    const { page, context, consoleSecret } = await onMailPage(['Mail::Send']);
    smtp.recipientScript.set('gone@example.com', [{ code: 550, message: '5.1.1 Gone' }]);
    await send(consoleSecret, { to: 'gone@example.com', subject: 'Bounces' });
    for (let index = 0; index < 21; index += 1)
      await send(consoleSecret, { to: 'ada@example.com', subject: `Batch ${index}` });
    await goTo(page, 'Mail');
    const caption = 'My messages';
    // 22, 20 a page, newest first.
    await rowOf(page, caption, 'Batch 20').waitFor();
    expect(await messages(page, caption).getByRole('row').count()).to.equal(21);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2', { exact: true }).waitFor();
    // The page's number changes as soon as Next is pressed; its rows once the next page has come.
    await rowOf(page, caption, 'Batch 0').waitFor();
    expect(await messages(page, caption).getByRole('row').allInnerTexts()).to.satisfy((rows: string[]) =>
      rows.slice(1).every((row) => /Batch 0|Bounces/.test(row)),
    );
    expect(await messages(page, caption).getByRole('row').count()).to.equal(3);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1', { exact: true }).waitFor();
    await eventually(async () => {
      await page.getByLabel('Status').selectOption('failed');
      await rowOf(page, caption, 'Bounces').waitFor({ timeout: 1000 });
    });
    expect(await messages(page, caption).getByRole('row').count()).to.equal(2);
    expect(await rowOf(page, caption, 'Bounces').innerText())
      .to.include('failed')
      .and.include('Gone');
    await page.getByLabel('Status').selectOption('queued');
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByText('No queued messages.').waitFor({ timeout: 1000 });
    });
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 390])
      it(`has no serious accessibility fault on the list and a message’s recipients, ${colorScheme}, ${width} px wide`, async () => {
        const { page, context, refused, consoleSecret } = await onMailPage(['Mail::Send'], { colorScheme, width });
        const subject = `Looked at ${colorScheme} ${width}`;
        await send(consoleSecret, { to: ['ada@example.com', 'grace@example.com'], subject });
        await goTo(page, 'Mail');
        await rowOf(page, 'My messages', subject)
          .getByRole('button', { name: /^Recipients/ })
          .click();
        await page.getByRole('table', { name: 'Recipients' }).waitFor();
        expect(await seriousViolations(page)).to.deep.equal([]);
        expect(await contentWidth(page)).to.be.at.most(width);
        await screenshot(page, `mail-${colorScheme}-${width}`);
        expect(refused).to.deep.equal([]);
        await context.close();
      });
});
