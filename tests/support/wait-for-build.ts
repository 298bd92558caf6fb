import { existsSync, readFileSync } from 'node:fs';

/**
 * `npm test` builds dist/ beside mocha rather than before it (scripts/test-suite.js): a root hook
 * that holds back the files starting the built program until the build has ended, and fails them
 * at once, pointing to the build's output, when it failed. Outside `npm test` (no
 * UTILITY_API_TEST_BUILD_STATUS), dist/ is the developer's and nothing waits.
 */
const STATUS_FILE = process.env.UTILITY_API_TEST_BUILD_STATUS;
/**
 * The files that start dist/ (the server, the CLI binary) or load it (the client, bundled for a
 * browser; the console's bundle in dist/console/, which the server serves) rather than the code in
 * this process.
 */
const STARTS_THE_BUILD =
  /[/\\]tests[/\\](e2e[/\\]|readme-examples\.test\.ts$|browser[/\\](client|console-[\w-]+)\.test\.ts$|http[/\\]console\.test\.ts$)/;
/** Where `npm test` says its checks (type-check, lint, formatting) are done. */
const CHECKS_FILE = process.env.UTILITY_API_TEST_CHECKS_DONE;
/** The files that measure the server's own memory: they wait for the checks, which would take the cores it needs to give memory back. */
const MEASURES_THE_SERVER = /[/\\]tests[/\\]e2e[/\\]unfinished-bodies\.test\.ts$/;

interface HookContext {
  timeout(ms: number): void;
  readonly test?: {
    readonly parent?: { readonly suites: readonly { file?: string }[]; readonly tests: readonly { file?: string }[] };
  };
}

export const mochaHooks = {
  async beforeAll(this: HookContext): Promise<void> {
    if (STATUS_FILE === undefined) return;
    const root = this.test?.parent;
    const file = root?.suites[0]?.file ?? root?.tests[0]?.file ?? '';
    if (!STARTS_THE_BUILD.test(file)) return;
    // The build's own time on a loaded machine, not a test's.
    this.timeout(0);
    while (!existsSync(STATUS_FILE)) await new Promise((resolve) => setTimeout(resolve, 100));
    const status = readFileSync(STATUS_FILE, 'utf8').trim();
    if (status !== '0') throw new Error(`the build of dist/ failed (exit ${status}): see its output after the tests`);
    if (CHECKS_FILE !== undefined && MEASURES_THE_SERVER.test(file))
      while (!existsSync(CHECKS_FILE)) await new Promise((resolve) => setTimeout(resolve, 100));
  },
};
