import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { CONSOLE_SWITCH } from '../config/platform-settings.js';
import { servedFile } from './docs-page.js';
import { CONSOLE_HEADERS } from './document-headers.js';
import { turnedOff } from './endpoint.js';
import { defineOpenRoute, type Route } from './route-table.js';

/** Where the console is served; its page picks what it shows from the address's hash (`/console#/tokens`). */
export const CONSOLE_PATH = '/console';
const ASSETS_PATH = `${CONSOLE_PATH}/assets`;

/** `/console` or a path below it: whatever is answered there carries the console's headers. */
export const isConsolePath = (path: string): boolean =>
  path.startsWith(CONSOLE_PATH) && (path.length === CONSOLE_PATH.length || path[CONSOLE_PATH.length] === '/');

/**
 * dist/console/ at the package's root, as scripts/console-bundle.js writes it: found from this
 * file both in src/ (under tsx) and in dist/, which sit at the same depth below the root.
 */
export const CONSOLE_FOLDER = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

const TYPE_OF_EXTENSION: Readonly<Record<string, 'text/javascript' | 'text/css'>> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
};

/** The page is read again at each visit by browsers: it names the assets of the build being served. */
const PAGE_HEADERS = { 'Cache-Control': 'no-store', ...CONSOLE_HEADERS };
/** An asset's name carries its content's hash: a new build makes new names, so one name's bytes never change. */
const ASSET_HEADERS = { 'Cache-Control': 'public, max-age=31536000, immutable', ...CONSOLE_HEADERS };

/** Said in the console's place by a server whose package was not built (a checkout before `npm run build`). */
const NOT_BUILT = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>utility-api console</title></head>
<body><main><h1>The console was not built</h1><p>Run <code>npm run build</code>, then restart the server.</p></main></body>
</html>
`;

/** A route of the console that answers 423 code 23, as every endpoint of a family turned off. */
const switchedOff = (path: string): Route =>
  defineOpenRoute({
    method: 'GET',
    path,
    outsideApi: true,
    undocumented: true,
    summary: 'The console, turned off on this installation',
    produces: 'text/html',
    response: t.string,
    handle: () => E.left(turnedOff(CONSOLE_SWITCH)),
  });

/**
 * `GET /console`: the web console (docs/console.md), a page that calls the API like any client,
 * and its hashed assets, read once from dist/console/ when the routes are made. Turned off, each
 * answers 423 code 23.
 */
export function consoleRoutes(on: boolean, folder = CONSOLE_FOLDER): Route[] {
  const assetsFolder = join(folder, 'assets');
  const assets = existsSync(assetsFolder)
    ? readdirSync(assetsFolder).filter((name) => TYPE_OF_EXTENSION[extname(name)] !== undefined)
    : [];
  if (!on) return [CONSOLE_PATH, ...assets.map((name) => `${ASSETS_PATH}/${name}`)].map(switchedOff);
  const pageFile = join(folder, 'index.html');
  const page = existsSync(pageFile) ? readFileSync(pageFile) : NOT_BUILT;
  return [
    servedFile(CONSOLE_PATH, 'text/html', 'The console', () => page, PAGE_HEADERS),
    ...assets.map((name) => {
      const bytes = readFileSync(join(assetsFolder, name));
      return servedFile(
        `${ASSETS_PATH}/${name}`,
        TYPE_OF_EXTENSION[extname(name)]!,
        "The console's code",
        () => bytes,
        ASSET_HEADERS,
      );
    }),
  ];
}
