// Mocha's settings. The whole suite runs in two processes (the machine we promise has two cores),
// the slowest files first so that neither process is left alone with a long one at the end.
// Files named on the command line run alone, in one process, as named.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/** Seconds each takes alone, roughly; reorder when a file becomes slow. */
const SLOWEST_FIRST = [
  'tests/readme-examples.test.ts',
  'tests/e2e/program.test.ts',
  'tests/e2e/lifecycle.test.ts',
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

const namedFiles = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /\.(ts|js)$/.test(arg));

const all = testFiles('tests').sort();
const suite = [...SLOWEST_FIRST.filter((file) => all.includes(file)), ...all.filter((file) => !SLOWEST_FIRST.includes(file))];

module.exports = {
  'node-option': ['import=tsx'],
  require: ['reflect-metadata'],
  extension: ['ts'],
  timeout: 60000,
  exit: true,
  ...(namedFiles ? {} : { spec: suite, parallel: true, jobs: 2 }),
};
