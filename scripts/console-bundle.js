// The console's page (src/console/, see docs/console.md) bundled for browsers by esbuild into
// dist/console/: its script and style sheet under assets/ with their content's hash in their names
// (served as kept for a year: a new build makes new names), and index.html naming them (never
// kept). Run by scripts/build.js after the client's types, which the console's code is typed by.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

/** The page: its script and style sheet from this origin, nothing inline (the console's policy refuses inline code). */
const page = (script, styleSheet) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>utility-api console</title>
<link rel="stylesheet" href="/console/assets/${styleSheet}">
<script type="module" src="/console/assets/${script}"></script>
</head>
<body>
<div id="console"></div>
<noscript><p>The console is a script: allow scripts for this page, or use the API directly (<a href="/docs">its reference</a>).</p></noscript>
</body>
</html>
`;

/** Bundles src/console/main.tsx (and the style sheets it imports) into `<root>/dist/console/`; resolves with the assets' names. */
export async function bundleConsole(root) {
  const out = join(root, 'dist', 'console');
  // Old hashed names would be served for ever otherwise.
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { console: join(root, 'src', 'console', 'main.tsx') },
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    outdir: join(out, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(root, 'src', 'console', 'tsconfig.json'),
    metafile: true,
    logLevel: 'warning',
  });
  const written = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = written.find((name) => name.endsWith('.js'));
  const styleSheet = written.find((name) => name.endsWith('.css'));
  if (script === undefined || styleSheet === undefined)
    throw new Error(`the console's bundle lacks its script or style sheet: ${written.join(', ')}`);
  writeFileSync(join(out, 'index.html'), page(script, styleSheet));
  return written;
}
