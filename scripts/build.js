#!/usr/bin/env node
// `npm run build` (and `npm ci`, through `prepare`): the client's types from the OpenAPI document
// the routes being built describe (scripts/client-types.ts), the console's bundle
// (scripts/console-bundle.js), the compiler over src/ into dist/, the places' snapshot
// (scripts/geonames-snapshot.js), then the programs' bundles over the compiler's dist/main.js and
// dist/cli/index.js (scripts/program-bundle.js). Arguments are the compiler's
// (`--noCheck` where the type-check runs on its own).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleConsole } from './console-bundle.js';
import { writePlacesSnapshot } from './geonames-snapshot.js';
import { bundlePrograms } from './program-bundle.js';

const root = join(import.meta.dirname, '..');
const run = (args) => {
  const { status, signal } = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? (signal ? 1 : 0));
};
run(['--import', 'tsx', join(root, 'scripts', 'client-types.ts')]);
await bundleConsole(root);
run([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', ...process.argv.slice(2)]);
await writePlacesSnapshot(root);
await bundlePrograms(root);
