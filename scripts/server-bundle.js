// The program that `npm start` and `node dist/main.js` run, bundled by esbuild into dist/main.js
// itself, over the compiler's output. Node 20 loads the ~1,000 modules of the unbundled program
// one by one (resolving, reading, wrapping and compiling each): `node dist/main.js` answered its
// first request 820 ms after it started, and the bundle 420 ms, with RSS at start 8 MB lower
// (same run, 2026-11-27). Run by scripts/build.js after the compiler. The rest of dist/ stays as
// the compiler wrote it: the package's library (`utility-api`, `utility-api/domain`, ...) and the
// CLI.
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

/**
 * Packages left out of the bundle and imported from node_modules as before:
 * - knex, which picks its database driver by name from a list of requires of every driver it
 *   knows (most not installed), and the native better-sqlite3 and pg it ends up loading;
 * - the packages the program imports only on first use (`import('bwip-js')` and the like): in the
 *   bundle their code would be read at every start, drawn or not (bwip-js is 1.1 MB of it).
 * Packages the program loads with `createRequire(import.meta.url)` stay out by themselves.
 */
const EXTERNAL = ['knex', 'better-sqlite3', 'pg', 'bwip-js', 'libphonenumber-js', 'secure-password-utilities'];

/**
 * Each module keeps its own URL: files found beside a module (`new URL('./draw-worker.js',
 * import.meta.url)`, the configuration folder, the bundled facts) and packages resolved from it
 * are found from where the compiler put that module, not from the bundle. Any other use of
 * `import.meta` would not survive bundling, so it stops the build.
 */
const keepModuleUrls = (dist) => ({
  name: 'keep-module-urls',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async ({ path }) => {
      if (relative(dist, path).startsWith('..')) return undefined;
      const text = await readFile(path, 'utf8');
      const kept = text.replaceAll(
        'import.meta.url',
        `new URL(${JSON.stringify(`./${relative(dist, path)}`)}, import.meta.url).href`,
      );
      if (/import\.meta(?!\.url)/.test(text.replaceAll('import.meta.url', '')))
        throw new Error(
          `${relative(dist, path)} uses import.meta other than import.meta.url, which the bundle cannot keep`,
        );
      return { contents: kept, loader: 'js' };
    });
  },
});

/** Bundles `<root>/dist/main.js` (as the compiler wrote it) into itself, with its source map to src/. */
export async function bundleServer(root) {
  const dist = join(root, 'dist');
  await build({
    absWorkingDir: root,
    entryPoints: [join(dist, 'main.js')],
    outfile: join(dist, 'main.js'),
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // CommonJS packages in an ES module still call require(): give them Node's own.
    banner: {
      js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
    },
    // Identifiers stay as written, so that a stack trace names its functions; the rest is packed
    // (2.9 MB of code; measured while bwip-js was still inside, packing saved 40 ms of the start
    // and 5 MB of RSS).
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    plugins: [keepModuleUrls(dist)],
    logLevel: 'warning',
  });
}
