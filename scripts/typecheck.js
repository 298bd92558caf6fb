#!/usr/bin/env node
// `npm run typecheck`: the server, tests and scripts (tsconfig.json), then the console's browser
// code (src/console/tsconfig.json: the DOM and Preact's JSX, which the server must not see).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const programs = [
  ['-p', 'tsconfig.json', '--tsBuildInfoFile', '.cache/typecheck.tsbuildinfo'],
  ['-p', join('src', 'console', 'tsconfig.json'), '--tsBuildInfoFile', '.cache/typecheck-console.tsbuildinfo'],
];
let failed = false;
for (const args of programs) {
  const { status } = spawnSync(process.execPath, [tsc, '--noEmit', '--incremental', ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
