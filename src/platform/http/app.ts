import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import type { Logger } from 'pino';
import { catalogueEntryOf, outageCauseOf, type CatalogueError } from '../../domain/errors.js';
import type { AccessLog } from '../logging/logger.js';
import { NO_METRICS, UNMATCHED_OPERATION } from '../pipeline/metrics.js';
import type { Principal } from '../../domain/identity/principal.js';
import type {
  Metrics,
  PasswordAuthentication,
  RateLimiter,
  TokenAuthentication,
  TokenRequestObserver,
} from '../pipeline/ports.js';
import { ADMIT_EVERY_REQUEST } from '../pipeline/rate-limiter.js';
import { crossOrigin, type CorsSettings } from './cors.js';
import { endpoint, type Stages } from './endpoint.js';
import { sendError } from './error-response.js';
import { isConsolePath } from './console-page.js';
import { CONSOLE_HEADERS } from './document-headers.js';
import { redirection } from './redirect.js';
import { assignRequestId, requestIds } from './request-id.js';
import { API_PREFIX, servedPath, type RouteTable } from './route-table.js';
import { ClientGone } from './unfinished-body.js';
import { echoed } from './well-formed.js';

export { API_PREFIX };

/**
 * The status logged and counted for a request whose client closed the connection before its
 * answer (nginx's "client closed request"): nobody received one, so it is neither a success nor
 * an error of ours.
 */
const CLIENT_GONE = 499;

/**
 * What HTTP/1.1 requires of every request and Node would have refused with a bare status line
 * (the server lets such requests through to be answered here like every other error): a `Host`
 * header, and no expectation but `100-continue`, the one this server meets.
 */
function protocolError(req: Context['req']): CatalogueError | undefined {
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
    return { _tag: 'InvalidHeader', names: ['host'], details: 'host is required in HTTP/1.1' };
  }
  const expectation = req.headers.expect;
  if (expectation !== undefined && expectation.toLowerCase() !== '100-continue') {
    return { _tag: 'InvalidHeader', names: ['expect'], details: 'expect may only be 100-continue' };
  }
  return undefined;
}

export interface AppDependencies {
  /** Every endpoint, those asked without a token (health, the document, the reference page) included. */
  readonly table: RouteTable;
  readonly authenticate: TokenAuthentication;
  /** For the routes that take a password instead of a token. */
  readonly logIn: PasswordAuthentication;
  /** Bugs and outages. */
  readonly logger: Logger;
  /** One line per request. */
  readonly accessLog: AccessLog;
  readonly maxBodyBytes: number;
  /** Asked after authentication, before anything is decoded; admits every request unless given. */
  readonly rateLimiter?: RateLimiter;
  /** Told of every answered request; records nothing unless given. */
  readonly metrics?: Metrics;
  /** Told of every answered request a token was let in on; none unless given. */
  readonly tokenRequests?: readonly TokenRequestObserver[];
  /** Which browser pages may call the API; none unless given. */
  readonly cors?: CorsSettings;
}

/**
 * The request path, stage by stage: request id → authenticate → rate limit → decode → handle →
 * observe. The first and last wrap every request, found or not (with the protocol check and the
 * net for bugs between them); the middle ones are each endpoint's (see endpoint.ts).
 */
export function createApp({
  table,
  authenticate,
  logIn,
  logger,
  accessLog,
  maxBodyBytes,
  rateLimiter = ADMIT_EVERY_REQUEST,
  metrics = NO_METRICS,
  tokenRequests = [],
  cors,
}: AppDependencies): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  // Full paths: most routes are below /api, a few (metrics, health) where monitoring looks for them.
  const router = new Router();
  const nextRequestId = requestIds();
  const fail = (ctx: Context, error: CatalogueError, acceptsPassword = false): void => {
    logOutage(logger, ctx.state.requestId as string, error);
    sendError(ctx, error, acceptsPassword);
  };
  const stages: Stages = { authenticate, logIn, rateLimiter, maxBodyBytes, fail };

  // A path without parameters is found by one map lookup; the router, which tries its layers one
  // by one, answers the rest (parameters, a trailing slash, other letter case, HEAD) the same way.
  const exactRoutes = new Map<string, Map<string, (ctx: Context) => Promise<void>>>();
  for (const route of table.routes) {
    const handler = endpoint(route, stages);
    router.register(servedPath(route), [route.method], handler);
    if (!route.path.includes(':')) {
      const byPath = exactRoutes.get(route.method) ?? new Map<string, (ctx: Context) => Promise<void>>();
      exactRoutes.set(route.method, byPath.set(servedPath(route), handler));
    }
  }
  for (const redirect of table.redirects)
    router.register(API_PREFIX + redirect.from, [redirect.method], redirection(redirect, fail));

  /** The last stage: one access-log line and one observation per request, whatever the answer. */
  const observe = (ctx: Context, requestId: string, started: number): void => {
    const elapsed = performance.now() - started;
    // Nothing is sent yet: a connection already closed is a client that left without its answer.
    const status = ctx.req.socket?.destroyed ? CLIENT_GONE : ctx.status;
    // The query string is never logged: it carries the data users encrypt.
    accessLog({ requestId, method: ctx.req.method!, path: ctx.path, status, ms: Math.round(elapsed * 10) / 10 });
    const operation = (ctx.state.operation as string | undefined) ?? UNMATCHED_OPERATION;
    metrics.observe(operation, status, elapsed);
    const principal = ctx.state.principal as Principal | undefined;
    if (principal) for (const observer of tokenRequests) observer.observe(principal, operation, status);
  };

  app.use(async (ctx: Context, next: Next) => {
    const started = performance.now();
    const requestId = assignRequestId(ctx, nextRequestId);
    try {
      const refused = protocolError(ctx.req);
      if (refused) fail(ctx, refused);
      else await next();
    } catch (error) {
      // Only bugs and outages get here, and a client gone mid-body, which has nobody to answer
      // and is no failure of ours (its access line says 499). The client learns nothing of a bug
      // but the request id.
      if (!(error instanceof ClientGone)) {
        logger.error({ err: error, requestId }, 'request failed');
        sendError(ctx, { _tag: 'Unknown' });
      }
    }
    // The console's refusals (423 when turned off, 404 for an asset of another build) carry its headers too.
    if (isConsolePath(ctx.path)) ctx.set(CONSOLE_HEADERS);
    observe(ctx, requestId, started);
  });
  // Inside the first stage, so that a preflight has a request id and is logged, and the headers
  // it sets stay on every error answered there.
  if (cors && cors.origins.length > 0) app.use(crossOrigin(table, cors));
  // One middleware finds the endpoint: each layer more of Koa's would cost every request a promise.
  const routed = router.routes();
  const notFound = (ctx: Context): void => {
    const { path } = router.match(ctx.path, ctx.method);
    const allowed = [...new Set(path.flatMap((layer) => layer.methods))];
    if (allowed.length > 0) fail(ctx, { _tag: 'MethodNotAllowed', allowed });
    else fail(ctx, { _tag: 'InformationNotFound', details: `No endpoint ${ctx.method} ${echoed(ctx.path)}` });
  };
  app.use((ctx: Parameters<typeof routed>[0]) => {
    const exact = exactRoutes.get(ctx.req.method!)?.get(ctx.path);
    if (exact) return exact(ctx);
    return routed(ctx, async () => notFound(ctx));
  });
  return app;
}

/**
 * A store or upstream outage is logged here, once, with the request it failed: the use case only
 * turned it into a catalogue error carrying the cause, and the client sees that error alone.
 */
function logOutage(logger: Logger, requestId: string, error: CatalogueError): void {
  const cause = outageCauseOf(error);
  if (cause !== undefined) logger.error({ err: cause, requestId, code: catalogueEntryOf(error).code }, 'outage');
}
