import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'koa';
import { makeOnce } from '../caching/load-once.js';
import { DOCS_PAGE_HEADERS } from './document-headers.js';

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

// validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io.
const START = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

interface Served {
  readonly type: string;
  readonly body: () => Buffer;
}

/** Each read once, at its first request: the bundle is a megabyte and a half that most servers never send. */
const fromPackage = (file: string) => makeOnce(() => readFileSync(join(SWAGGER_UI_FOLDER, file)));

const SERVED: Readonly<Record<string, Served>> = {
  '/docs': { type: 'text/html; charset=utf-8', body: makeOnce(() => Buffer.from(PAGE)) },
  '/docs/start.js': { type: 'text/javascript; charset=utf-8', body: makeOnce(() => Buffer.from(START)) },
  '/docs/swagger-ui.css': { type: 'text/css; charset=utf-8', body: fromPackage('swagger-ui.css') },
  '/docs/swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', body: fromPackage('swagger-ui-bundle.js') },
};

/**
 * `GET /docs`: an interactive reference of `/api/openapi.json`, served whole from this server.
 * Answers and says so when the request is for one of its files; leaves every other request alone.
 */
export function docsPage(): (ctx: Context) => boolean {
  return (ctx) => {
    const served = SERVED[ctx.path === '/docs/' ? '/docs' : ctx.path];
    if (served === undefined || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
    ctx.state.operation = `GET ${ctx.path === '/docs/' ? '/docs' : ctx.path}`;
    ctx.response.set('Content-Type', served.type);
    ctx.response.set('Cache-Control', 'public, max-age=3600');
    ctx.response.set(DOCS_PAGE_HEADERS);
    ctx.body = served.body();
    return true;
  };
}
