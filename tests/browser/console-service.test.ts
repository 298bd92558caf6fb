import { readFileSync } from 'node:fs';
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
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { startServer, type TestServer } from '../support/http-server.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const familyRow = (page: Page, family: string) =>
  page
    .getByRole('table', { name: 'Families and whether they are on' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: family, exact: true }) });

/**
 * Issue 29 §7: the service page, for holders of System::Metrics, against a real server on SQLite
 * with a family turned off: liveness and readiness with their checks, the version, each family
 * on or off as the OpenAPI document marks it, the latest changes; no serious accessibility fault.
 */
describeInBrowser('browser: the console’s service page', function () {
  let server: TestServer;
  let browser: Browser;
  let database: TestDatabase;
  before(async () => {
    // A database in a file, whose readiness is checked (one in memory has nothing to check).
    database = await freshSqlite();
    [server, browser] = await Promise.all([
      startServer({ env: database.env, overrides: { features: { disabled: ['Weather'] } } }),
      launchBrowser(),
    ]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await database?.drop();
  });

  async function onServicePage(options: Parameters<typeof openConsole>[2] = {}) {
    const person = await personWithPassword(server, ['System::Metrics']);
    const opened = await openConsole(browser, server, options);
    await signIn(opened.page, person.username);
    await goTo(opened.page, 'Service');
    return opened;
  }

  it('shows health and readiness, the version, a family turned off and the others on, and the latest changes', async () => {
    const { page, context, refused } = await onServicePage();
    const health = page.getByRole('region', { name: 'Health' });
    await health.getByText('pass: serving').first().waitFor();
    expect(await health.getByRole('heading', { name: 'Readiness (/readyz)' }).count()).to.equal(1);
    const readiness = await page.getByRole('table', { name: 'Checks of readiness' }).innerText();
    expect(readiness).to.match(/database:responseTime\tpass\t\d+ ms/);

    expect(await page.getByRole('region', { name: 'Version' }).innerText()).to.include(version);

    await familyRow(page, 'Weather').waitFor();
    expect(await familyRow(page, 'Weather').innerText()).to.match(/\toff\t/);
    expect(await familyRow(page, 'Cryptography').innerText()).to.match(/\ton\t/);
    // The page says what the server does: the family's operations answer 423 code 23.
    const weather = await server.get('/api/weather/current?lat=1&lon=1', {
      Authorization: `Bearer ${await server.tokenFor(['*'])}`,
    });
    expect(weather.status).to.equal(423);

    const changes = page.getByRole('region', { name: 'Latest changes' });
    await changes.getByRole('heading', { name: new RegExp(`^utility-api ${version}, `) }).waitFor();
    expect(await changes.getByRole('listitem').first().innerText()).to.not.equal('');
    expect(await changes.getByRole('link', { name: 'The whole change log' }).getAttribute('href')).to.equal(
      '/changelog',
    );
    expect(refused).to.deep.equal([]);
    await context.close();
  });

  it('is listed only for a holder of System::Metrics', async () => {
    const person = await personWithPassword(server, ['Tokens::*']);
    const { page, context } = await openConsole(browser, server);
    await signIn(page, person.username);
    const links = await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link').allInnerTexts();
    expect(links).to.not.include('Service');
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 390])
      it(`has no serious accessibility fault, ${colorScheme}, ${width} px wide`, async () => {
        const { page, context, refused } = await onServicePage({ colorScheme, width });
        await familyRow(page, 'Weather').waitFor();
        await page.getByRole('region', { name: 'Latest changes' }).getByRole('heading', { level: 3 }).first().waitFor();
        expect(await seriousViolations(page)).to.deep.equal([]);
        expect(await contentWidth(page)).to.be.at.most(width);
        await screenshot(page, `service-${colorScheme}-${width}`);
        expect(refused).to.deep.equal([]);
        await context.close();
      });

  // Last: the instance stops serving readiness for good.
  it('shows readiness failing, in words, once the instance is stopping; liveness still passes', async () => {
    const { page, context } = await onServicePage();
    await page.getByRole('region', { name: 'Health' }).getByText('pass: serving').first().waitFor();
    server.app.beginDrain();
    await page.getByRole('button', { name: 'Check again' }).click();
    const readiness = page.getByRole('region', { name: 'Readiness (/readyz)' });
    await readiness.getByText('fail: send this instance no work').waitFor();
    expect(await readiness.innerText()).to.include('stopping: finishing the requests received');
    expect(await page.getByRole('region', { name: 'Liveness (/livez)' }).innerText()).to.include('pass: serving');
    await context.close();
  });
});
