#!/usr/bin/env node
// `npm test`'s steps before mocha: type-check, lint, check the formatting and build at once, since each uses one core
// and the machine we promise has two. Each step's output is printed whole when it ends, so the
// steps do not interleave; the exit code is non-zero when any step failed.
import { spawn } from 'node:child_process';

const steps = {
  typecheck: ['npx', ['tsc', '--noEmit', '--incremental', '--tsBuildInfoFile', '.cache/typecheck.tsbuildinfo']],
  lint: ['npx', ['eslint', '--cache', '--cache-location', '.cache/eslint/', '.']],
  format: [
    'npx',
    ['prettier', '--check', '--log-level', 'warn', '--cache', '--cache-location', '.cache/prettier', '.'],
  ],
  // Type errors are the typecheck's to report; the build only has to write dist/ for the tests that start it.
  build: ['npx', ['tsc', '-p', 'tsconfig.build.json', '--noCheck']],
};

const run = (name, [command, args]) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds} s\n`);
      if (code !== 0) process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });

const results = await Promise.all(Object.entries(steps).map(([name, step]) => run(name, step)));
process.exit(results.every(Boolean) ? 0 : 1);
