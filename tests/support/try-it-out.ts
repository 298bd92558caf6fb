import { expect } from 'chai';
import type { Browser, Locator, Page } from 'playwright-core';
import { authorizeReference, describeInBrowser, launchBrowser, policyRefusalsOf } from './browser.js';
import type { TestServer } from './http-server.js';
import { openReferenceWorld, type ReferenceWorld } from './reference-world.js';

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly example?: unknown;
}
interface Operation {
  readonly parameters?: readonly Parameter[];
  readonly responses: Record<string, { content?: Record<string, unknown> }>;
}

/**
 * Issue 28 §2: a person who opens `/docs`, authorizes with a token and runs "Try it out" on any GET
 * operation with the values the page fills in gets an answer, not a refusal of the page's own
 * checks. Every upstream is a loopback fixture, so each upstream-backed operation answers too. The
 * values a document cannot know in advance (a ciphertext of this server's key, the id of a message
 * or an endpoint) are typed in, as a person would, from things made first.
 *
 * Opening, running and showing an operation costs Swagger UI about a second of a core, so the operations are tried in
 * two files (tests/browser/docs-try-it-out-*-of-2.test.ts) that npm test runs at once, each every
 * other operation in the document's order: neighbours are of one section, so each file takes half
 * of each section and the two take about as long (split by section, one took 80 s and the other 35).
 */
export function describeTryItOut(part: 1 | 2, of: 2): void {
  describeInBrowser(
    `browser: "Try it out" on every GET operation of /docs, with its example values: every other one, part ${part} of ${of}`,
    function () {
      this.timeout(600_000);
      let world: ReferenceWorld;
      let server: TestServer;
      let browser: Browser;

      before(async () => {
        world = await openReferenceWorld();
        server = world.server;
        browser = await launchBrowser();
      });
      after(async () => {
        await browser?.close();
        await world?.close();
      });

      /**
       * Opens or closes the operation's block from its summary's button, by the keyboard, and waits
       * until the button says it did. A click went to the summary's middle, where its path is a link
       * to the operation's deep link, at a point measured a moment before: in one run of npm test a
       * block never opened after its click (its "Try it out" button waited for 30 s), which did not
       * happen again alone or beside two busy loops. Enter on the button needs no point on the page.
       */
      async function toggle(block: Locator, expanded: boolean): Promise<void> {
        await block.locator('.opblock-summary-control').first().press('Enter');
        await block.locator(`.opblock-summary-control[aria-expanded="${expanded}"]`).first().waitFor();
      }

      /** The operation's block on the page, opened, in "Try it out". */
      async function tryOut(page: Page, path: string): Promise<Locator> {
        // A moved path's block is marked deprecated rather than GET: found by its method's label.
        const block = page
          .locator('.opblock', { has: page.locator(`.opblock-summary [data-path="${path}"]`) })
          .filter({ has: page.locator('.opblock-summary-method', { hasText: /^GET$/ }) });
        await toggle(block, true);
        await block.locator('button.try-out__btn').click();
        return block;
      }

      const parameterInput = (block: Locator, parameter: Parameter) =>
        // A text box, or a list to choose from where the parameter takes a few values.
        block.locator(`tr[data-param-name="${parameter.name}"][data-param-in="${parameter.in}"] :is(input, select)`);

      it('answers each one as its page says, and the page refuses none of the values it filled in', async () => {
        const token = await server.tokenFor(['*']);
        const asked = (method: string, path: string, json?: unknown) => server.send(method, path, { token, json });
        // What no document can name in advance, made on this server first.
        const ciphertext = await (await asked('GET', '/api/crypto/enc?data=hello')).text();
        const made: Record<string, Record<string, string>> = {
          '/api/crypto/dec': { data: ciphertext },
          // The old path, which sends its query string on to /api/crypto/dec.
          '/api/crypt/decr': { data: ciphertext },
          '/api/mail/status': {
            id: (
              (await (
                await asked('POST', '/api/mail/send', { to: 'ada@example.com', subject: 'Hi', content: 'Hello' })
              ).json()) as { id: string }
            ).id,
          },
        };
        const endpoint = (
          (await (
            await asked('POST', '/api/webhook/create', { url: 'https://127.0.0.1:9/hooks', events: ['token.created'] })
          ).json()) as {
            id: string;
          }
        ).id;
        made['/api/webhook/info'] = { id: endpoint };
        made['/api/webhook/deliveries'] = { id: endpoint };

        const document = (await (await server.get('/api/openapi.json')).json()) as {
          paths: Record<string, Record<string, Operation>>;
        };
        const operations = Object.entries(document.paths)
          .flatMap(([path, methods]) => (methods.get ? [{ path, operation: methods.get }] : []))
          .filter((_, index) => index % of === part - 1);
        expect(operations.length).to.be.greaterThan(20);

        const page = await browser.newPage();
        const refusedByPolicy = await policyRefusalsOf(page);
        await page.goto(`${server.baseUrl}/docs`);
        await page.locator('.opblock').last().waitFor();
        await authorizeReference(page, token);

        const answered: Record<string, string> = {};
        const expected: Record<string, string> = {};
        for (const { path, operation } of operations) {
          const block = await tryOut(page, path);
          for (const parameter of operation.parameters ?? []) {
            const input = parameterInput(block, parameter);
            const typedIn = made[path]?.[parameter.name];
            if (typedIn !== undefined) await input.fill(typedIn);
            // What the page filled in is the document's example, as it is.
            else if (parameter.example !== undefined)
              expect(await input.inputValue(), `${path} ${parameter.name}`).to.equal(String(parameter.example));
          }
          await block.locator('button.execute').click();
          const status = block.locator('.live-responses-table tbody .response-col_status').first();
          await status.waitFor();
          expect(
            await block.locator('.invalid, .validation-errors').count(),
            `${path}: the page's own checks`,
          ).to.equal(0);
          answered[path] = (await status.innerText()).trim();
          // A success where the document has one, and where a moved path's redirect leads (the page
          // follows it); an operation that has none (a game without its map) answers one of the errors it lists.
          const statuses = Object.keys(operation.responses);
          const successes = statuses.filter((code) => code.startsWith('2') || code === '308');
          expected[path] = successes.length > 0 ? 'a success' : `one of ${statuses.join(', ')}`;
          if (successes.length > 0 && answered[path]!.startsWith('2')) answered[path] = 'a success';
          if (successes.length === 0 && statuses.includes(answered[path]!)) answered[path] = expected[path]!;

          if (path === '/api/barcode/gen/{codec}') {
            // An image shows as one, drawn from the bytes the server sent.
            const image = block.locator('.live-responses-table .response-col_description img');
            await image.waitFor();
            await page.screenshot({
              path: process.env.SCREENSHOTS ? `${process.env.SCREENSHOTS}/barcode.png` : undefined,
            });
            const width = await image.evaluate(
              (element) =>
                new Promise<number>((resolve) => {
                  const shown = element as unknown as {
                    complete: boolean;
                    naturalWidth: number;
                    onload: () => void;
                    onerror: () => void;
                  };
                  if (shown.complete) resolve(shown.naturalWidth);
                  shown.onload = () => resolve(shown.naturalWidth);
                  shown.onerror = () => resolve(-1);
                }),
            );
            expect(width, 'the barcode shown').to.be.greaterThan(20);
          }
          // Closed again, so that the next block's locators see one live answer.
          await toggle(block, false);
        }
        expect(answered).to.deep.equal(expected);
        expect(refusedByPolicy, 'what the Content-Security-Policy refused').to.deep.equal([]);
        await page.close();
      });
    },
  );
}
