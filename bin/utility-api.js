#!/usr/bin/env node
// The CLI runs the compiled program; `npm install` builds it (the `prepare` script).
try {
  await import('../dist/cli/index.js');
} catch (error) {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli')) {
    console.error('utility-api: the program is not built yet; run `npm install` or `npm run build` first');
    process.exit(1);
  }
  throw error;
}
