// The programs, bundled by esbuild each into itself over the compiler's output: the server that
// `npm start` and `node dist/main.js` run, and the CLI that `bin/utility-api.js` imports
// (dist/cli/index.js). Node 20 loads the ~1,000 modules of an unbundled program one by one
// (resolving, reading, wrapping and compiling each): `node dist/main.js` answered its first
// request 820 ms after it started, and its bundle 420 ms, with RSS at start 8 MB lower;
// `utility-api --help` took 0.65 s and bundled 0.33 s (same runs, 2026-11-27). Run by
// scripts/build.js after the compiler. The rest of dist/ stays as the compiler wrote it: the
// package's library (`utility-api`, `utility-api/domain`, ...).
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
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
 * are found from where the compiler put that module, not from the bundle (`bundleFolder`). Any other use of
 * `import.meta` would not survive bundling, so it stops the build.
 */
const keepModuleUrls = (dist, bundleFolder) => ({
  name: 'keep-module-urls',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async ({ path }) => {
      if (relative(dist, path).startsWith('..')) return undefined;
      const text = await readFile(path, 'utf8');
      const fromBundle = relative(bundleFolder, path).split(sep).join('/');
      const kept = text.replaceAll(
        'import.meta.url',
        `new URL(${JSON.stringify(fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`)}, import.meta.url).href`,
      );
      if (/import\.meta(?!\.url)/.test(text.replaceAll('import.meta.url', '')))
        throw new Error(
          `${relative(dist, path)} uses import.meta other than import.meta.url, which the bundle cannot keep`,
        );
      return { contents: kept, loader: 'js' };
    });
  },
});

/** The programs bundled, each into itself: the server, and the CLI that `bin/utility-api.js` imports. */
const PROGRAMS = ['main.js', 'cli/index.js'];

/** Bundles each of PROGRAMS under `<root>/dist/` (as the compiler wrote it) into itself, with its source map to src/. */
export async function bundlePrograms(root) {
  const dist = join(root, 'dist');
  for (const program of PROGRAMS) {
    const file = join(dist, program);
    await bundle(dist, file);
    await mustBeAscii(file);
  }
}

/**
 * V8 keeps a program's source for as long as it runs, in one byte a character if every character
 * fits in Latin-1 and in two otherwise: one curly apostrophe in a pattern doubled the server's
 * kept source from 2.7 to 5.4 MB (a heap snapshot, 2026-11-28). esbuild escapes what lies beyond
 * ASCII in strings and templates but not in regular expression literals, so those are written
 * with `\u` escapes in src/ and a slip stops the build here.
 */
async function mustBeAscii(file) {
  const text = await readFile(file, 'utf8');
  const at = text.search(/[\u{80}-\u{10ffff}]/u);
  if (at === -1) return;
  throw new Error(
    `${file} holds ${JSON.stringify(text[at])} (U+${text.codePointAt(at).toString(16).toUpperCase().padStart(4, '0')}) ` +
      `in "${text.slice(Math.max(0, at - 60), at + 20)}": write it as a \\u escape in its source`,
  );
}

/**
 * fp-ts and io-ts as ES modules: src/ imports their CommonJS builds (`fp-ts/lib/Either.js`, which
 * Node's ESM loader can import), and in a bundle every use of a CommonJS module's export (`E.left`,
 * `E.isLeft`, `t.string`, on every request) goes through a getter that esbuild's interop defines.
 */
const esModulesOfFpTs = {
  name: 'es-modules-of-fp-ts',
  setup(build) {
    build.onResolve({ filter: /^fp-ts\/lib\/|^io-ts$/ }, ({ path, resolveDir, kind }) =>
      build.resolve(path === 'io-ts' ? 'io-ts/es6/index.js' : path.replace('fp-ts/lib/', 'fp-ts/es6/'), {
        resolveDir,
        kind,
      }),
    );
  },
};

async function bundle(dist, file) {
  await build({
    absWorkingDir: dirname(dist),
    entryPoints: [file],
    outfile: file,
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
    plugins: [keepModuleUrls(dist, dirname(file)), esModulesOfFpTs],
    logLevel: 'warning',
  });
}
