#!/usr/bin/env node
// `npm test`'s mocha run: every test file but tests/package, in two processes (the machine we
// promise has two cores), the slowest files first so that neither process is left alone with a
// long one at the end. `.mocharc.json` holds the settings every run shares, so that files named
// on the command line (`npx mocha tests/http/crypto.test.ts`) run alone, in one process.
// Arguments given to this script (`npm test -- --grep login`) are passed on to mocha.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Seconds each takes alone, roughly; reorder when a file becomes slow. */
const SLOWEST_FIRST = [
  'tests/readme-examples.test.ts',
  'tests/e2e/program.test.ts',
  'tests/e2e/lifecycle.test.ts',
  'tests/e2e/unfinished-bodies.test.ts',
  'tests/fuzz/routes.test.ts',
  'tests/browser/docs-page.test.ts',
  'tests/http/password-login.test.ts',
  'tests/http/barcode.test.ts',
  'tests/adapters/upstream-client.test.ts',
  'tests/http/game.test.ts',
  'tests/http/users.test.ts',
];

const testFiles = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return path === join('tests', 'package') ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });

const all = testFiles('tests').sort();
const suite = [
  ...SLOWEST_FIRST.filter((file) => all.includes(file)),
  ...all.filter((file) => !SLOWEST_FIRST.includes(file)),
];

const mocha = spawn('npx', ['mocha', '--parallel', '--jobs', '2', ...process.argv.slice(2), ...suite], {
  stdio: 'inherit',
});
mocha.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
