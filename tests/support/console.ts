import type { Browser, BrowserContext, Page } from 'playwright-core';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { accessibilityViolations, policyRefusalsOf } from './browser.js';
import { expectRight } from './either.js';
import type { TestServer } from './http-server.js';

/**
 * What the console's browser tests share (tests/browser/console-*.test.ts): people with a
 * password, a page of the console opened in a fresh context, signing in as a person does, the
 * token a password sign-in makes, and what the accessibility checker finds.
 */

export const PASSWORD = 'a passphrase long enough';

let personSequence = 0;

/** A user with a password and these permissions, made as the CLI makes one. */
export async function personWithPassword(
  server: TestServer,
  permissions: string[],
): Promise<{ username: string; email: string; uid: string }> {
  personSequence += 1;
  const username = `person${personSequence}`;
  const email = `${username}@example.com`;
  const user = expectRight(
    await server.app.useCases.usersAndTokens.createUser.execute({
      actor: OPERATOR,
      username,
      email,
      password: PASSWORD,
      permissions,
    }),
  );
  return { username, email, uid: user.uid };
}

export interface ConsoleOptions {
  readonly colorScheme?: 'light' | 'dark';
  /** 1280 by default; 390 for a phone. */
  readonly width?: number;
}

/** /console in a new context, its clipboard readable, with the policy refusals it meets (see policyRefusalsOf). */
export async function openConsole(
  browser: Browser,
  server: TestServer,
  { colorScheme = 'light', width = 1280 }: ConsoleOptions = {},
): Promise<{ page: Page; context: BrowserContext; refused: string[] }> {
  const context = await browser.newContext({ colorScheme, viewport: { width, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  const page = await context.newPage();
  const refused = await policyRefusalsOf(page);
  // A script that fails looks fine to a test that waits for something else.
  page.on('pageerror', (error) => refused.push(`page error: ${error.message}`));
  await page.goto(`${server.baseUrl}/console`);
  await page.getByRole('heading', { name: 'utility-api console' }).waitFor();
  return { page, context, refused };
}

/** Fills the password form and submits it, as a person does with the mouse. */
export async function submitPassword(page: Page, login: string, password: string): Promise<void> {
  await page.getByLabel('Username or email').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Signs in with a password and waits for the overview; resolves with the secret of the token the
 * console made, read from the API's answer as it reached the page (the console shows it nowhere).
 */
export async function signIn(page: Page, login: string, password = PASSWORD): Promise<string> {
  const issued = page.waitForResponse(
    (response) => response.url().endsWith('/api/token/create') && response.request().method() === 'POST',
  );
  await submitPassword(page, login, password);
  const answer = await issued;
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return ((await answer.json()) as { token: string }).token;
}

/** Opens a page of the console from its navigation. */
export async function goTo(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
  await headingFocused(page);
}

/** Waits for the focus on the page's heading, where the console moves it when a page opens. */
export const headingFocused = (page: Page): Promise<unknown> =>
  // A function, not a string: the console's policy refuses eval, which a string would need.
  page.waitForFunction(
    () =>
      (globalThis as unknown as { document: { activeElement?: { tagName: string } } }).document.activeElement
        ?.tagName === 'H1',
  );

/** The serious and critical violations the accessibility checker finds on the page as it is. */
export const seriousViolations = (page: Page): Promise<string[]> =>
  accessibilityViolations(page, ['serious', 'critical']);

/** SCREENSHOTS=<folder> keeps what the browser showed, by name. */
export const screenshot = (page: Page, name: string): Promise<unknown> | undefined =>
  process.env.SCREENSHOTS
    ? page.screenshot({ path: `${process.env.SCREENSHOTS}/console-${name}.png`, fullPage: true })
    : undefined;

/** The element that has the keyboard's focus, as a person would name it: its accessible name or its text. */
export const focusedName = async (page: Page): Promise<string> =>
  String(
    await page.evaluate(`(() => {
      const element = document.activeElement;
      const label = element?.getAttribute('aria-label') ?? element?.labels?.[0]?.textContent;
      return (label ?? element?.textContent ?? '').trim();
    })()`),
  );

/** A property of the focused element's computed style (its outline, say). */
export const focusedStyle = async (page: Page, property: string): Promise<string> =>
  String(await page.evaluate(`getComputedStyle(document.activeElement).getPropertyValue(${JSON.stringify(property)})`));

/** The focused element's tag, in capitals. */
export const focusedTag = async (page: Page): Promise<string> =>
  String(await page.evaluate('document.activeElement?.tagName'));

/** How wide the page's content is, to compare with the window: wider scrolls sideways. */
export const contentWidth = async (page: Page): Promise<number> =>
  Number(await page.evaluate('document.documentElement.scrollWidth'));
