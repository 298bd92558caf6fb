#!/usr/bin/env node
// `npm test`: the checks (scripts/checks.js) and mocha, at once. Every test file but tests/package
// runs in two mocha processes (the machine we promise has two cores), the slowest files first so
// that neither process is left alone with a long one at the end. `.mocharc.json` holds the settings
// every run shares, so that files named on the command line (`npx mocha tests/http/crypto.test.ts`)
// run alone, in one process. Arguments given to this script (`npm test -- --grep login`) are
// passed on to mocha.
//
// The build of dist/ (when src/ changed since the last one) starts with mocha: only the files that start the built program wait for it
// (tests/support/wait-for-build.ts), and the slowest files, which need none, come first. The
// type-check, the lint and the formatting check run beside mocha at a lower priority, on what the
// tests leave of the cores (they wait on processes, sockets and timers), and print their results
// once mocha is done. The exit code is non-zero when any of them or mocha failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runStep } from './checks.js';

/** Seconds each takes alone, roughly; reorder when a file becomes slow. The first ones need no build. */
const SLOWEST_FIRST = [
  'tests/fuzz/routes.test.ts',
  'tests/http/barcode.test.ts',
  'tests/http/password-login.test.ts',
  'tests/http/storage-timeout.test.ts',
  'tests/readme-examples.test.ts',
  'tests/e2e/program.test.ts',
  'tests/e2e/lifecycle.test.ts',
  'tests/e2e/unfinished-bodies.test.ts',
  'tests/e2e/mail.test.ts',
  'tests/http/mail.test.ts',
  'tests/browser/docs-page.test.ts',
  'tests/http/weather.test.ts',
  'tests/http/game.test.ts',
  'tests/composition/mail-worker.test.ts',
  'tests/e2e/instances.test.ts',
  'tests/adapters/upstream-client.test.ts',
  'tests/http/users.test.ts',
];

const testFiles = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return path === join('tests', 'package') ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });

/**
 * Files that measure the server's own memory or pace: run last, once the checks (which take a
 * core each for a minute) are done, so that what they measure is the server's and not the
 * machine's. Their hook waits for the checks too (tests/support/wait-for-build.ts).
 */
const QUIET_LAST = ['tests/e2e/unfinished-bodies.test.ts'];

const all = testFiles('tests').sort();
const suite = [
  ...SLOWEST_FIRST.filter((file) => all.includes(file) && !QUIET_LAST.includes(file)),
  ...all.filter((file) => !SLOWEST_FIRST.includes(file) && !QUIET_LAST.includes(file)),
  ...QUIET_LAST.filter((file) => all.includes(file)),
];

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

const mocha = await new Promise((resolve) => {
  const child = spawn(
    'npx',
    [
      'mocha',
      '--parallel',
      '--jobs',
      '2',
      '--require',
      './tests/support/wait-for-build.ts',
      ...process.argv.slice(2),
      ...suite,
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, UTILITY_API_TEST_BUILD_STATUS: statusFile, UTILITY_API_TEST_CHECKS_DONE: checksFile },
    },
  );
  child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
});

const results = await Promise.all([build, ...checks]);
process.stdout.write('\n');
for (const { summary, output } of results) process.stdout.write(summary + output);
process.exit(mocha === 0 && results.every(({ ok }) => ok) ? 0 : 1);
