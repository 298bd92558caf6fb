#!/usr/bin/env node
// `npm test`'s steps beside mocha: type-check, lint, check the formatting and build. Run alone
// (`node scripts/checks.js`), all four at once, since each uses one core and the machine we
// promise has two; `npm test` (scripts/test-suite.js) runs them beside mocha instead. Each step's
// output is printed whole when it ends, so the steps do not interleave; the exit code is non-zero
// when any step failed.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const bin = (path) => join(root, 'node_modules', path);

/** Each step as a Node program and its arguments: started directly, so that a lowered priority is its own. */
export const steps = {
  typecheck: [join(root, 'scripts', 'typecheck.js'), []],
  lint: [bin('eslint/bin/eslint.js'), ['--cache', '--cache-location', '.cache/eslint/', '.']],
  format: [
    bin('prettier/bin/prettier.cjs'),
    ['--check', '--log-level', 'warn', '--cache', '--cache-location', '.cache/prettier', '.'],
  ],
  // Type errors are the typecheck's to report; the build only has to write dist/ for the tests that start it.
  build: [join(root, 'scripts', 'build.js'), ['--noCheck']],
};

/**
 * Runs one step; resolves with whether it passed, its one-line summary and, when it failed, its
 * output. `priority` (a nice value, 0 to 19) lowers its claim on the cores, for a step run beside
 * something more urgent.
 */
export function runStep(name, { priority = 0 } = {}) {
  const [program, args] = steps[name];
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [program, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    if (priority !== 0) {
      try {
        setPriority(child.pid, priority);
      } catch {
        // Not allowed here: it runs at the usual priority.
      }
    }
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      resolve({
        name,
        ok: code === 0,
        summary: `${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds} s\n`,
        output: code === 0 ? '' : Buffer.concat(output).toString('utf8'),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await Promise.all(Object.keys(steps).map((name) => runStep(name)));
  for (const { summary, output } of results) process.stdout.write(summary + output);
  process.exit(results.every(({ ok }) => ok) ? 0 : 1);
}
