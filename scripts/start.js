#!/usr/bin/env node
// `npm start`: the server runs in this very process, so the SIGTERM or SIGINT that npm passes on
// to its child reaches the server and nothing stands in between. `npm install` builds dist/ (the
// `prepare` script); it is built again here only when missing or older than a file of src/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const builtMain = join(root, 'dist/main.js');
const buildInputs = [join(root, 'src'), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json')];

function newestChange(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

const stale = !existsSync(builtMain) || statSync(builtMain).mtimeMs < Math.max(...buildInputs.map(newestChange));
if (stale) {
  process.stderr.write('utility-api: dist/ is missing or older than src/: building it\n');
  // The compiler's messages go to stderr: stdout carries the server's JSON log lines.
  const build = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
    shell: process.platform === 'win32',
  });
  if (build.status !== 0) {
    process.stderr.write('utility-api: the build failed; see the messages above\n');
    process.exit(1);
  }
}
await import('../dist/main.js');
