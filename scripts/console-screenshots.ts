// `npm run console:screenshots`: a picture of each page of the console, for docs/console.md. A
// server on SQLite starts in this process with a few people, tokens that have been used, a
// webhook that has been delivered to and mail that has been sent (to a receiver and an SMTP server
// on loopback, so nothing leaves the machine); Chromium signs in as its administrator and saves
// every page the navigation lists at 1280 px in the light scheme, and a few at 390 px in the
// dark one, into docs/console/. Look at them before committing them.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { OPERATOR } from '../src/domain/identity/actor.js';
import { launchBrowser } from '../tests/support/browser.js';
import { goTo, openConsole, PASSWORD, signIn } from '../tests/support/console.js';
import { freshSqlite } from '../tests/support/databases.js';
import { expectRight } from '../tests/support/either.js';
import { eventually } from '../tests/support/eventually.js';
import { startServer, type TestServer } from '../tests/support/http-server.js';
import { startSmtpFixture } from '../tests/support/smtp-fixture.js';
import { startWebhookReceiver } from '../tests/support/webhook-receiver.js';

const OUT = join(import.meta.dirname, '..', 'docs', 'console');
/** The pages also shown as on a phone at night. */
const NARROW_DARK = ['Overview', 'Tokens', 'Webhooks'];
/** A family turned off, so that the service page shows what that looks like. */
const TURNED_OFF = 'Weather';

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** People, tokens that have been used, a webhook with deliveries and mail in every state. */
async function furnish(server: TestServer, receiverUrl: string): Promise<void> {
  const { createUser, issueToken } = server.app.useCases.usersAndTokens;
  const person = (username: string, firstName: string, lastName: string, permissions: string[]) =>
    createUser.execute({
      actor: OPERATOR,
      username,
      firstName,
      lastName,
      email: `${username}@example.com`,
      password: PASSWORD,
      permissions,
    });
  expectRight(await person('ada', 'Ada', 'Lovelace', ['*']));
  expectRight(await person('grace', 'Grace', 'Hopper', ['Cryptography::*', 'Mail::Send', 'Webhooks::Manage']));
  expectRight(await person('linus', 'Linus', 'Pauling', ['Dictionary::*', 'Barcode::*']));
  const token = async (name: string, scopes: string[]) =>
    expectRight(await issueToken.execute({ actor: OPERATOR, owner: { username: 'ada' }, name, scopes })).secret;
  const deploy = await token('deploy bot', ['Cryptography::*', 'Tokens::Read']);
  const mailer = await token('newsletter', ['Mail::Send', 'Mail::Read', 'Webhooks::Manage']);
  await token('nightly backup', ['Cryptography::Encrypt']);
  const as = (secret: string) => ({ Authorization: `Bearer ${secret}` });
  for (let index = 0; index < 40; index += 1) await server.get(`/api/crypto/enc?data=${index}`, as(deploy));
  for (let index = 0; index < 6; index += 1) await server.get('/api/crypto/enc', as(deploy));
  await server.get('/api/token/info', as(deploy));

  // The webhook's first delivery is refused once, then taken: a log with a retry in it.
  const created = await server.send('POST', '/api/webhook/create', {
    token: mailer,
    json: {
      url: `${receiverUrl}/hooks/utility-api`,
      events: ['token.created', 'mail.delivered', 'mail.failed'],
      description: 'The release dashboard',
    },
  });
  if (created.status !== 201) throw new Error(`The webhook was refused: ${await created.text()}`);
  await token('release 2026-11', ['Cryptography::Decrypt']);

  const send = async (to: string[], subject: string) => {
    const sent = await server.send('POST', '/api/mail/send', {
      token: mailer,
      json: { to, subject, content: `Hello,\n\n**${subject}**: the details are in the dashboard.` },
    });
    if (sent.status !== 202) throw new Error(`The message was refused: ${await sent.text()}`);
  };
  await send(['team@example.com'], 'Release 2026-11 is out');
  await send(['grace@example.com', 'nobody@example.com'], 'Your access was renewed');
  await send(['gone@example.org'], 'Invoice 1042');
  await send(['linus@example.com'], 'Welcome aboard');
}

/** The page's document, for functions run in it: this script is type-checked without the DOM's types. */
interface InPage {
  readonly document: {
    readonly body: { readonly innerText: string };
    readonly activeElement: { blur?: () => void } | null;
    querySelectorAll(selector: string): Iterable<{ scrollTo(x: number, y: number): void }>;
  };
}

/** Waits for what a page reads from the API to have come: no "Loading…" left, a chart drawn. */
async function settled(page: Page): Promise<void> {
  // A function, not a string: the console's policy refuses eval, which a string would need.
  await page.waitForFunction(() => !(globalThis as unknown as InPage).document.body.innerText.includes('Loading…'));
  if ((await page.locator('.usage-chart').count()) > 0) await page.locator('.usage-chart canvas').first().waitFor();
}

/** What each page shows once opened, beyond its list: a webhook's log, a message's recipients. */
async function openDetail(page: Page, name: string): Promise<void> {
  const row = (text: string) => page.getByRole('table').first().getByRole('row').filter({ hasText: text });
  if (name === 'Webhooks') await row('release dashboard').getByRole('button', { name: 'Deliveries' }).click();
  if (name === 'Mail')
    await row('Your access was renewed')
      .getByRole('button', { name: /^Recipients/ })
      .click();
  if (name === 'Tokens') await row('deploy bot').getByRole('button', { name: 'Usage' }).click();
  await settled(page);
  // The table's box keeps the scroll a click into it gave; the picture shows its start.
  await page.evaluate(() => {
    const { document } = globalThis as unknown as InPage;
    for (const box of document.querySelectorAll('.table-box')) box.scrollTo(0, 0);
    document.activeElement?.blur?.();
  });
}

const database = await freshSqlite();
const smtp = await startSmtpFixture();
const receiver = await startWebhookReceiver('127.0.0.1');
receiver.answers.push(500);
smtp.recipientScript.set('nobody@example.com', [{ code: 550, message: '5.1.1 No such user here' }]);
smtp.recipientScript.set('gone@example.org', [{ code: 550, message: '5.1.1 Mailbox closed' }]);
const server = await startServer({
  env: { ...database.env, UTILITY_API_SMTP_URL: smtp.url, UTILITY_API_USAGE_FLUSH_MS: '200' },
  overrides: {
    features: { disabled: [TURNED_OFF] },
    webhooks: { allowHttp: true, pollIntervalMs: 50, retryBaseMs: 200, retryMaxMs: 400 },
    outbound: { allowedNetworks: ['127.0.0.0/8'] },
    mail: { pollIntervalMs: 50, retryBaseMs: 100, retryMaxMs: 200 },
  },
});
const browser = await launchBrowser();
try {
  await furnish(server, receiver.url);
  // Every delivery and message settled, and the usage written, before any picture.
  await eventually(() => {
    if (receiver.received.length < 3) throw new Error('the webhook’s deliveries are still on their way');
    if (smtp.attempts < 3) throw new Error('the mail is still on its way');
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  const written: string[] = [];
  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 390],
  ] as const) {
    const { page, context, refused } = await openConsole(browser, server, { colorScheme, width });
    await signIn(page, 'ada');
    const names = await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link').allInnerTexts();
    for (const name of names) {
      if (colorScheme === 'dark' && !NARROW_DARK.includes(name)) continue;
      // Signing in opens the first page: following its link again changes nothing to wait for.
      if (name !== names[0]) await goTo(page, name);
      await settled(page);
      await openDetail(page, name);
      const file = `${slug(name)}-${colorScheme}-${width}.png`;
      await page.screenshot({ path: join(OUT, file), fullPage: true });
      written.push(file);
    }
    if (refused.length > 0) throw new Error(`The page met refusals: ${refused.join('; ')}`);
    // Signing out deletes the sign-in's token: the next pictures list one console token, not two.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await context.close();
  }
  console.log(`${written.length} screenshots written to ${OUT}: ${written.join(', ')}`);
} finally {
  await browser.close();
  await server.close();
  await receiver.close();
  await smtp.close();
  await database.drop();
}
