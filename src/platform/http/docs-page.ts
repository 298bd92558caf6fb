import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { makeOnce } from '../caching/load-once.js';
import { DOCS_PAGE_HEADERS } from './document-headers.js';
import { defineOpenRoute, type Route } from './route-table.js';

/** Swagger UI's files, from its npm package: the page needs nothing from outside this server. */
const SWAGGER_UI_FOLDER = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>utility-api reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;

/**
 * Opening an operation makes Swagger UI resolve that part of the document. For an OpenAPI 3.1
 * document it does so through ApiDOM, which took 1.3 s of a core per operation here, longer the
 * more operations were open (swagger-api/swagger-ui#10748); its OpenAPI 3.0 resolver gives the
 * very same result for this document, in 30 ms (the two compared on all 70 operations, 2026-11-28),
 * because every reference in it is a plain local pointer, which tests/http/openapi.test.ts keeps
 * so. The page still reads and shows the document as 3.1: only the resolver is told otherwise.
 */
const RESOLVE_AS_OPENAPI_30 = `const resolveAsOpenApi30 = () => ({
  afterLoad(system) {
    const resolveSubtree = system.fn.resolveSubtree;
    system.fn.resolveSubtree = (openApiDocument, path, options) =>
      resolveSubtree({ ...openApiDocument, openapi: '3.0.3' }, path, options);
  },
});
`;

// validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io.
const START = `${RESOLVE_AS_OPENAPI_30}window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [resolveAsOpenApi30],
  layout: 'BaseLayout',
});
`;

/** Each read once, at its first request: the bundle is a megabyte and a half that most servers never send. */
const fromPackage = (file: string) => makeOnce(() => readFileSync(join(SWAGGER_UI_FOLDER, file)));

/** Kept an hour by browsers, and allowed to run the page's own script and style only. */
const HEADERS = { 'Cache-Control': 'public, max-age=3600', ...DOCS_PAGE_HEADERS };

/** A file served to browsers as it is, outside /api and the document: a page, its script or its style sheet. */
export const servedFile = (
  path: string,
  contentType: 'text/html' | 'text/javascript' | 'text/css',
  summary: string,
  body: () => string | Buffer,
  headers: Readonly<Record<string, string>>,
): Route =>
  defineOpenRoute({
    method: 'GET',
    path,
    outsideApi: true,
    undocumented: true,
    summary,
    produces: contentType,
    response: t.string,
    handle: () => E.right({ contentType, body: body(), prepared: true, headers }),
  });

/** `GET /docs`: an interactive reference of `/api/openapi.json`, served whole from this server. */
export const docsRoutes = (): Route[] => [
  servedFile('/docs', 'text/html', 'The reference page', () => PAGE, HEADERS),
  servedFile('/docs/start.js', 'text/javascript', 'What starts the reference page', () => START, HEADERS),
  servedFile('/docs/swagger-ui.css', 'text/css', "Swagger UI's style", fromPackage('swagger-ui.css'), HEADERS),
  servedFile(
    '/docs/swagger-ui-bundle.js',
    'text/javascript',
    'Swagger UI',
    fromPackage('swagger-ui-bundle.js'),
    HEADERS,
  ),
];
