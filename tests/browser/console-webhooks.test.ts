import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { describeInBrowser, launchBrowser } from '../support/browser.js';
import {
  contentWidth,
  focusedName,
  focusedTag,
  goTo,
  openConsole,
  personWithPassword,
  screenshot,
  seriousViolations,
  signIn,
} from '../support/console.js';
import { eventually } from '../support/eventually.js';
import { startServer, type TestServer } from '../support/http-server.js';
import { signatureHeadersOf, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** The row of the webhooks table whose URL is `url`. */
const rowOf = (page: Page, url: string) =>
  page.getByRole('table', { name: 'My webhooks' }).getByRole('row').filter({ hasText: url });

const act = (page: Page, url: string, action: string) =>
  rowOf(page, url).getByRole('button', { name: action, exact: true }).click();

/** Creates a webhook from the page hearing `events`; resolves with the signing secret the page showed, its dialog closed. */
async function createWebhook(page: Page, url: string, events: string[], description?: string): Promise<string> {
  await page.getByRole('button', { name: 'Create a webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a webhook' });
  await dialog.getByLabel('URL').fill(url);
  for (const event of events) await dialog.getByRole('checkbox', { name: event, exact: true }).check();
  if (description !== undefined) await dialog.getByLabel('Description').fill(description);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  const shown = page.getByRole('dialog', { name: `The signing secret of ${url}` });
  const secret = await shown.getByLabel('Signing secret').inputValue();
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await rowOf(page, url).waitFor();
  return secret;
}

/**
 * Issue 29 §5: the webhooks page, against a real server on SQLite that delivers to a receiver on
 * loopback: create (the secret shown once, and the one the deliveries are signed with), a test
 * event and its outcome, the delivery log with each attempt, paged, redelivery, edit, rotation,
 * deletion after a confirmation, refusals in words; no serious accessibility fault.
 */
describeInBrowser('browser: the console’s webhooks page', function () {
  let server: TestServer;
  let browser: Browser;
  let receiver: WebhookReceiver;
  before(async () => {
    [server, browser, receiver] = await Promise.all([
      startServer({
        overrides: {
          webhooks: { allowHttp: true, pollIntervalMs: 20, retryBaseMs: 50, retryMaxMs: 200 },
          outbound: { allowedNetworks: ['127.0.0.0/8'] },
        },
      }),
      launchBrowser(),
      startWebhookReceiver('127.0.0.1'),
    ]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  /** A person who may manage webhooks and tokens, signed in on the webhooks page. */
  async function onWebhooksPage(options: Parameters<typeof openConsole>[2] = {}) {
    const person = await personWithPassword(server, ['Webhooks::Manage', 'Tokens::*']);
    const opened = await openConsole(browser, server, options);
    const consoleSecret = await signIn(opened.page, person.username);
    await goTo(opened.page, 'Webhooks');
    return { ...opened, person, consoleSecret };
  }

  /** What the receiver got at `path`. */
  const receivedAt = (path: string) => receiver.received.filter((one) => one.path === path);

  /** A token of the person's made through the API: a token.created event for their webhooks. */
  const makeToken = (secret: string, name: string) =>
    server.send('POST', '/api/token/create', { token: secret, json: { name } });

  it('creates a webhook whose secret, shown once, signs the test event; the test’s outcome is shown, failed or not', async () => {
    const { page, context, refused } = await onWebhooksPage();
    const url = `${receiver.url}/created`;
    await page.getByRole('button', { name: 'Create a webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a webhook' });
    await dialog.getByLabel('URL').fill(url);
    await dialog.getByRole('checkbox', { name: 'token.created', exact: true }).check();
    await dialog.getByLabel('Description').fill('the deploy bot');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const shown = page.getByRole('dialog', { name: `The signing secret of ${url}` });
    expect(await shown.innerText()).to.include('shown once');
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).to.match(/^whsec_/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByText('Copied.').waitFor();
    expect(String(await page.evaluate('navigator.clipboard.readText()'))).to.equal(secret);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(secret).count()).to.equal(0);
    const row = await rowOf(page, url).innerText();
    expect(row).to.include('token.created').and.include('the deploy bot').and.include('enabled');

    await act(page, url, 'Send a test');
    const outcome = page.getByRole('status').filter({ hasText: 'The test event to' });
    expect(await outcome.innerText()).to.match(new RegExp(`to ${url} was delivered: HTTP 200 in \\d+ ms\\.$`));
    const [test] = receivedAt('/created');
    const payload = new Webhook(secret).verify(test!.body, signatureHeadersOf(test!)) as { type: string };
    expect(payload.type).to.equal('webhook.test');

    receiver.answersByPath.set('/created', [500]);
    await act(page, url, 'Send a test');
    await page.getByText(/was not delivered: HTTP 500 in \d+ ms\./).waitFor();
    expect(await page.locator('.problem').filter({ hasText: 'was not delivered' }).count()).to.equal(1);
    expect(refused).to.deep.equal([]);
    await context.close();
  });

  it('refuses a URL to a private address and an empty list of events in words with their code, in the dialog', async () => {
    const { page, context } = await onWebhooksPage();
    await page.getByRole('button', { name: 'Create a webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a webhook' });
    await dialog.getByLabel('URL').fill('https://169.254.169.254/latest');
    await dialog.getByRole('checkbox', { name: 'Every event, those added later too' }).check();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    expect(await dialog.getByRole('alert').innerText()).to.match(/169\.254\.169\.254.*\(HTTP 400, code 11\)$/);
    await dialog.getByLabel('URL').fill(`${receiver.url}/none`);
    await dialog.getByRole('checkbox', { name: 'Every event, those added later too' }).uncheck();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByRole('alert').filter({ hasText: 'events' }).waitFor();
    expect(await dialog.getByRole('alert').innerText()).to.match(/\(HTTP 400, code 11\)$/);
    await context.close();
  });

  it('shows the delivery log with each attempt, pages it, and redelivers one', async () => {
    const { page, context, consoleSecret } = await onWebhooksPage();
    const url = `${receiver.url}/log`;
    await createWebhook(page, url, ['token.created']);
    // The first is refused, then delivered on its retry: two attempts.
    receiver.answersByPath.set('/log', [503]);
    expect((await makeToken(consoleSecret, 'first')).status).to.equal(201);
    await eventually(() => expect(receivedAt('/log')).to.have.length(2));
    await act(page, url, 'Deliveries');
    const log = page.getByRole('table', { name: 'Deliveries' });
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      expect(await log.getByRole('row').nth(1).innerText()).to.include('delivered');
    });
    const attempts = await log.getByRole('row').nth(1).getByRole('listitem').allInnerTexts();
    expect(attempts).to.have.length(2);
    expect(attempts[0]).to.match(/: HTTP 503 in \d+ ms$/);
    expect(attempts[1]).to.match(/: HTTP 200 in \d+ ms$/);
    expect(await log.getByRole('row').nth(1).innerText()).to.include('token.created');

    await log.getByRole('button', { name: /^Redeliver/ }).click();
    await page.getByRole('status').filter({ hasText: 'The token.created delivery is queued again.' }).waitFor();
    await eventually(() => expect(receivedAt('/log')).to.have.length(3));
    const ids = receivedAt('/log').map((one) => one.headers['webhook-id']);
    expect(new Set(ids).size).to.equal(1);
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      expect(await log.getByRole('row').nth(1).getByRole('listitem').count()).to.equal(3);
    });

    // 21 more: 22 deliveries, 20 a page.
    for (let index = 0; index < 21; index += 1) await makeToken(consoleSecret, `more ${index}`);
    await eventually(() => expect(receivedAt('/log')).to.have.length(24), { timeoutMs: 20_000 });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('navigation', { name: 'Pages of deliveries' }).waitFor();
    expect(await log.getByRole('row').count()).to.equal(21);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2', { exact: true }).waitFor();
    // The page's number changes as soon as a button is pressed; its rows once that page has come.
    await eventually(async () => expect(await log.getByRole('row').count()).to.equal(3));
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).to.equal(true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1', { exact: true }).waitFor();
    await eventually(async () => expect(await log.getByRole('row').count()).to.equal(21));
    // A filter starts again at the first page: none failed.
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No deliveries yet').waitFor();
    await context.close();
  });

  it('edits a webhook, rotates its secret (the new one shown once, both signing), and deletes it after a confirmation', async () => {
    const { page, context, consoleSecret } = await onWebhooksPage();
    const url = `${receiver.url}/edited`;
    const first = await createWebhook(page, url, ['token.created']);
    await act(page, url, 'Edit');
    const edit = page.getByRole('dialog', { name: `Edit the webhook to ${url}` });
    expect(await edit.getByRole('checkbox', { name: 'token.created', exact: true }).isChecked()).to.equal(true);
    await edit.getByRole('checkbox', { name: 'token.deleted', exact: true }).check();
    await edit.getByLabel('Description').fill('now described');
    await edit.getByRole('checkbox', { name: /^Disabled/ }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `The webhook to ${url} is saved.` })
      .waitFor();
    await eventually(async () =>
      expect(await rowOf(page, url).innerText())
        .to.include('token.deleted')
        .and.include('now described')
        .and.include('disabled'),
    );
    const [listed] = (await (
      await server.get('/api/webhook/list', { Authorization: `Bearer ${consoleSecret}` })
    ).json()) as { disabled: boolean; events: string[] }[];
    expect(listed).to.include({ disabled: true });
    expect(listed!.events).to.deep.equal(['token.created', 'token.deleted']);

    await act(page, url, 'Rotate the secret');
    const confirm = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    expect(await focusedName(page)).to.equal('Cancel');
    await confirm.getByRole('button', { name: 'Rotate the secret' }).click();
    const shown = page.getByRole('dialog', { name: `The new signing secret of ${url}` });
    const second = await shown.getByLabel('Signing secret').inputValue();
    expect(second)
      .to.match(/^whsec_/)
      .and.not.equal(first);
    expect(await shown.innerText()).to.include('The previous secret signs beside it until');
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await eventually(async () =>
      expect(await rowOf(page, url).innerText()).to.include('the previous secret also signs until'),
    );
    // A test is sent to a disabled webhook too, signed by both secrets.
    await act(page, url, 'Send a test');
    await page.getByText(/was delivered: HTTP 200/).waitFor();
    const [test] = receivedAt('/edited');
    for (const secret of [first, second])
      expect(new Webhook(secret).verify(test!.body, signatureHeadersOf(test!))).to.be.an('object');

    await act(page, url, 'Delete');
    const remove = page.getByRole('dialog', { name: 'Delete the webhook?' });
    expect(await remove.innerText()).to.include(url);
    expect(await focusedName(page)).to.equal('Cancel');
    await page.keyboard.press('Enter');
    await remove.waitFor({ state: 'detached' });
    await rowOf(page, url).waitFor();
    await act(page, url, 'Delete');
    await remove.getByRole('button', { name: 'Delete the webhook' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `The webhook to ${url} is deleted.` })
      .waitFor();
    await page.getByText(/^No webhooks yet/).waitFor();
    const left = await (await server.get('/api/webhook/list', { Authorization: `Bearer ${consoleSecret}` })).json();
    expect(left).to.deep.equal([]);
    await context.close();
  });

  it('creates a webhook, opens its log and sends it a test by keyboard alone', async () => {
    const { page, context } = await onWebhooksPage();
    const url = `${receiver.url}/keyboard`;
    /** Tabs on until the control named `name` has the focus. */
    const tabTo = async (name: string) => {
      for (let step = 0; step < 40 && (await focusedName(page)) !== name; step += 1) await page.keyboard.press('Tab');
      expect(await focusedName(page)).to.equal(name);
    };
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).to.equal('Create a webhook');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Create a webhook' }).waitFor();
    expect(await focusedName(page)).to.match(/^URL/);
    await page.keyboard.type(url);
    await tabTo('token.created');
    await page.keyboard.press('Space');
    await tabTo('Create');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: `The signing secret of ${url}` }).waitFor();
    await tabTo('I have copied it');
    await page.keyboard.press('Enter');
    // Back on the button that opened the dialog, then on along the list to the new row's actions.
    expect(await focusedName(page)).to.equal('Create a webhook');
    await tabTo('Deliveries');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Deliveries to ${url}` }).waitFor();
    // The heading takes the focus once it is drawn (an effect after the render).
    await eventually(async () => expect(await focusedTag(page)).to.equal('H2'));
    await page.keyboard.press('Shift+Tab');
    for (let step = 0; step < 10 && (await focusedName(page)) !== 'Send a test'; step += 1)
      await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByText(`The test event to ${url} was delivered`).waitFor();
    expect(receivedAt('/keyboard')).to.have.length(1);
    await context.close();
  });

  it('says in words with its code what the API answers for a webhook deleted elsewhere meanwhile', async () => {
    const { page, context, consoleSecret } = await onWebhooksPage();
    const url = `${receiver.url}/gone`;
    await createWebhook(page, url, ['token.created']);
    const [webhook] = (await (
      await server.get('/api/webhook/list', { Authorization: `Bearer ${consoleSecret}` })
    ).json()) as { id: string }[];
    const deleted = await server.send('DELETE', `/api/webhook/delete?id=${webhook!.id}`, { token: consoleSecret });
    expect(deleted.status).to.equal(200);
    await act(page, url, 'Send a test');
    expect(await page.getByRole('alert').innerText()).to.match(/\(HTTP 404, code 22\)$/);
    await act(page, url, 'Deliveries');
    const log = page.getByRole('region', { name: `Deliveries to ${url}` });
    expect(await log.getByRole('alert').innerText()).to.match(/\(HTTP 404, code 22\)$/);
    expect(receivedAt('/gone')).to.deep.equal([]);
    await context.close();
  });

  it('is listed only for a holder of Webhooks::Manage', async () => {
    const person = await personWithPassword(server, ['Tokens::*']);
    const { page, context } = await openConsole(browser, server);
    await signIn(page, person.username);
    const navigation = page.getByRole('navigation', { name: 'Console pages' });
    expect(await navigation.getByRole('link').allInnerTexts()).to.not.include('Webhooks');
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 390])
      it(`has no serious accessibility fault on the list, the create dialog, the secret and the log, ${colorScheme}, ${width} px wide`, async () => {
        const { page, context, refused, consoleSecret } = await onWebhooksPage({ colorScheme, width });
        const url = `${receiver.url}/looked-at-${colorScheme}-${width}`;
        await page.getByRole('button', { name: 'Create a webhook' }).click();
        const dialog = page.getByRole('dialog', { name: 'Create a webhook' });
        await dialog.getByLabel('URL').fill(url);
        await dialog.getByRole('checkbox', { name: 'token.created', exact: true }).check();
        expect(await seriousViolations(page)).to.deep.equal([]);
        await screenshot(page, `webhooks-create-${colorScheme}-${width}`);
        await dialog.getByRole('button', { name: 'Create', exact: true }).click();
        await page.getByRole('dialog', { name: `The signing secret of ${url}` }).waitFor();
        expect(await seriousViolations(page)).to.deep.equal([]);
        await page.getByRole('button', { name: 'I have copied it' }).click();
        await makeToken(consoleSecret, 'heard');
        await act(page, url, 'Send a test');
        await page.getByText(/was delivered/).waitFor();
        await act(page, url, 'Deliveries');
        await eventually(async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          expect(await page.getByRole('table', { name: 'Deliveries' }).innerText()).to.include('HTTP 200');
        });
        expect(await seriousViolations(page)).to.deep.equal([]);
        expect(await contentWidth(page)).to.be.at.most(width);
        await screenshot(page, `webhooks-${colorScheme}-${width}`);
        expect(refused).to.deep.equal([]);
        await context.close();
      });
});
