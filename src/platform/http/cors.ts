import koaCors from '@koa/cors';
import type { Context, Middleware } from 'koa';
import { RATE_LIMIT_FIELD, RATE_LIMIT_POLICY_FIELD } from './rate-limit-fields.js';
import type { RouteTable } from './route-table.js';

export interface CorsSettings {
  /** Origins (`https://app.example.com`) whose pages may call the API; `*` for any. None: no cross-origin calls. */
  readonly origins: readonly string[];
  /** How long a browser may reuse a preflight's answer. */
  readonly maxAgeSeconds: number;
}

/** Headers every browser caller may send, whatever the routes declare. */
const ALWAYS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'];
/** What a page's script may read of an answer beyond the safelisted headers. */
const EXPOSED_HEADERS = [RATE_LIMIT_FIELD, RATE_LIMIT_POLICY_FIELD, 'Retry-After', 'X-Request-Id', 'WWW-Authenticate'];

/**
 * Cross-origin calls from browser pages (@koa/cors): an allowed origin's preflight is answered 204
 * with the methods and headers the route table takes, and every answer to it, errors included,
 * carries the CORS headers. Another origin's requests are served as if it had sent no Origin, so
 * its browser hides the answer from the page.
 */
export function crossOrigin(table: RouteTable, { origins, maxAgeSeconds }: CorsSettings): Middleware {
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  const declaredHeaders = table.routes.flatMap((route) => Object.keys(route.headers));
  const allowHeaders = [
    ...new Map([...ALWAYS_ALLOWED_HEADERS, ...declaredHeaders].map((name) => [name.toLowerCase(), name])).values(),
  ];
  const allowMethods = [...new Set(['GET', 'HEAD', ...table.routes.map((route) => route.method)])];
  return koaCors({
    origin: (ctx: Context) => {
      if (anyOrigin) return '*';
      const origin = ctx.get('Origin');
      return allowed.has(origin) ? origin : '';
    },
    allowMethods,
    allowHeaders,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: maxAgeSeconds,
  });
}
