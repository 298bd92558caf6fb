#!/usr/bin/env node
// `npm test`: the checks (scripts/checks.js) and mocha, at once. Every test file but tests/package
// runs in four mocha processes on the two cores we promise: most files wait far more than they
// compute (for started programs, sockets, timers, PostgreSQL), and a file run alone leaves a core
// idle for over half its time (a serial run of the suite spends 135 of its 232 s idle), so four
// processes keep both cores busy where two left them idle. The slowest files start first so that
// none is left running alone at the end. `.mocharc.json` holds the settings every run shares, so
// that files named on the command line (`npx mocha tests/http/crypto.test.ts`) run alone, in one
// process. The files that drive /docs at length run after all the others (see RENDERS_AT_LENGTH),
// and the file that measures the server's memory after them, alone (see MEASURES_MEMORY). Arguments given to this script (`npm test -- --grep login`) are passed on to
// mocha; TEST_JOBS sets the number of processes.
//
// The build of dist/ (when src/ changed since the last one) starts with mocha: only the files that start the built program wait for it
// (tests/support/wait-for-build.ts). The type-check, the lint and the formatting check run beside
// mocha at a lower priority, on what the tests leave of the cores, and print their results once
// mocha is done. The exit code is non-zero when any of them or mocha failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runStep } from './checks.js';

/**
 * The files that take longest, in the order they start, by their seconds alone on a quiet 2-core
 * machine (in brackets: measured 2026-11-27 unless a date or a comment says otherwise); reorder when
 * a file becomes slow, and look at the end of a run for a file left running alone. Files that need no
 * build come before those that wait for it at each length.
 */
const SLOWEST_FIRST = [
  'tests/fuzz/routes.test.ts', // 17 (first: it needs no build, which the console files wait for)
  // The console files measured 2026-11-28, each alone, once their accessibility checks ran in the page
  // (a slower day: the fuzz file took 20 s).
  'tests/browser/console-users.test.ts', // 32 (waits for the build: the console's bundle)
  'tests/browser/console-tokens.test.ts', // 31
  'tests/browser/console-audit.test.ts', // 25
  'tests/browser/console-sign-in.test.ts', // 23
  'tests/browser/console-webhooks.test.ts', // 21
  'tests/browser/console-mail.test.ts', // 20
  'tests/browser/console-service.test.ts', // 19
  // Measured alone on 2026-11-28: it mostly waits (10 of its 20 s on a core). Started in the order
  // of the names, it ran alone for the last 17 s of the files run together.
  'tests/http/webhook-events.test.ts', // 20
  'tests/e2e/webhooks.test.ts', // 11
  'tests/http/unfinished-requests.test.ts', // 12.5
  'tests/http/storage-timeout.test.ts', // 11
  'tests/e2e/lifecycle.test.ts', // 13.4
  'tests/readme-examples.test.ts', // 12
  'tests/e2e/program.test.ts', // 11
  'tests/http/password-login.test.ts', // 9.2
  'tests/e2e/mail.test.ts', // 8.5
  'tests/browser/docs-page.test.ts', // 7.5
  'tests/browser/client.test.ts', // 5 (bundles dist/client/: waits for the build)
  'tests/http/barcode-options.test.ts', // 9.5 (2026-11-28)
  'tests/contracts/outbox.test.ts', // 7.7 (2026-11-28)
  'tests/http/rate-limit.test.ts', // 7.1
  'tests/http/audit.test.ts', // 6.9 (2026-11-28)
  'tests/adapters/geo-carrier-data.test.ts', // 6.8 (2026-11-28)
  'tests/cli/users-and-tokens.test.ts', // 6.7
  'tests/http/barcode.test.ts', // 6.4
  'tests/http/mail.test.ts', // 5.9
  'tests/adapters/knex-user-listing.test.ts', // 5.9
  'tests/http/token-chains.test.ts', // 5.3
  'tests/http/game.test.ts', // 5.2
  'tests/e2e/readiness.test.ts', // 5
  'tests/contracts/usage-history.test.ts', // 5
  'tests/contracts/token-store.test.ts', // 4.7
  'tests/adapters/migrations.test.ts', // 4.7
  'tests/cli/password-stdin.test.ts', // 4.5
  'tests/e2e/instances.test.ts', // 4.3
  'tests/http/webhook-instances.test.ts', // 6
  'tests/composition/mail-worker.test.ts', // 4.2
];

const testFiles = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return path === join('tests', 'package') ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });

/**
 * Files that measure the server's own memory: run once every other file is done, alone, and their
 * hook also waits for the checks (tests/support/wait-for-build.ts), so that what they measure is
 * the server's and not the machine's. Beside the other files, the server's memory once took over
 * a minute to come back (156 MB against a bound of 109 after 60 s), where alone it takes 11 to 19 s.
 */
const MEASURES_MEMORY = ['tests/e2e/unfinished-bodies.test.ts'];

/**
 * Files that keep Chromium's renderer busy for a minute (Swagger UI opens, fills in, runs and shows
 * each operation of /docs: 65 s each, side by side, measured 2026-11-28; 104 s before the page
 * resolved operations as OpenAPI 3.0, see src/platform/http/docs-page.ts). Beside the others they
 * starved them: a full run took 357 s instead of about 170, and a test that gives the database
 * 2 s saw it time out. They run next, the two at once, once the others are done.
 */
const RENDERS_AT_LENGTH = [
  'tests/browser/docs-try-it-out-1-of-2.test.ts',
  'tests/browser/docs-try-it-out-2-of-2.test.ts',
];

const all = testFiles('tests').sort();
const later = [...MEASURES_MEMORY, ...RENDERS_AT_LENGTH];
const suite = [
  ...SLOWEST_FIRST.filter((file) => all.includes(file) && !later.includes(file)),
  ...all.filter((file) => !SLOWEST_FIRST.includes(file) && !later.includes(file)),
];
const rendering = RENDERS_AT_LENGTH.filter((file) => all.includes(file));
const alone = MEASURES_MEMORY.filter((file) => all.includes(file));

// Where the build says how it ended, for the files that wait for it: written whole, then renamed.
const buildDir = join('.cache', 'test-build');
const statusFile = join(buildDir, 'status');
mkdirSync(buildDir, { recursive: true });
rmSync(statusFile, { force: true });
/** The newest change under `folder` (files and the folders themselves, so that a removed file counts). */
const newestChange = (folder) =>
  Math.max(
    statSync(folder).mtimeMs,
    ...readdirSync(folder, { withFileTypes: true }).map((entry) => {
      const path = join(folder, entry.name);
      return entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs;
    }),
  );
/**
 * dist/ as the last build left it is still the program of src/ when nothing under src/ changed
 * since: `npm ci` has just built it (the `prepare` step), and building it again costs a core for
 * 6 s. The build writes every file, dist/index.js among them, each time.
 */
const builtIndex = join('dist', 'index.js');
const distIsCurrent = existsSync(builtIndex) && statSync(builtIndex).mtimeMs > newestChange('src');
const build = (
  distIsCurrent
    ? Promise.resolve({
        name: 'build',
        ok: true,
        summary: 'build: dist/ is newer than every change in src/\n',
        output: '',
      })
    : runStep('build')
).then((result) => {
  writeFileSync(`${statusFile}.tmp`, `${result.ok ? 0 : 1}\n`);
  renameSync(`${statusFile}.tmp`, statusFile);
  return result;
});
// A nice value of 10: the tests come first, the checks take what they leave.
const checks = ['typecheck', 'lint', 'format'].map((name) => runStep(name, { priority: 10 }));
const checksFile = join(buildDir, 'checks');
rmSync(checksFile, { force: true });
void Promise.all(checks).then(() => writeFileSync(checksFile, 'done\n'));

/** A mocha run of `files` in `jobs` processes; resolves to its exit code. */
const runMocha = (files, jobs) =>
  new Promise((resolve) => {
    const child = spawn(
      'npx',
      [
        'mocha',
        ...(jobs > 1 ? ['--parallel', '--jobs', String(jobs)] : []),
        '--require',
        './tests/support/wait-for-build.ts',
        ...process.argv.slice(2),
        ...files,
      ],
      {
        stdio: 'inherit',
        env: { ...process.env, UTILITY_API_TEST_BUILD_STATUS: statusFile, UTILITY_API_TEST_CHECKS_DONE: checksFile },
      },
    );
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const together = await runMocha(suite, Number(process.env.TEST_JOBS ?? 4));
const rendered = rendering.length > 0 ? await runMocha(rendering, rendering.length) : 0;
const measured = alone.length > 0 ? await runMocha(alone, 1) : 0;

const results = await Promise.all([build, ...checks]);
process.stdout.write('\n');
for (const { summary, output } of results) process.stdout.write(summary + output);
process.exit(together === 0 && rendered === 0 && measured === 0 && results.every(({ ok }) => ok) ? 0 : 1);
