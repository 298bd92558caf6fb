import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import Koa, { type Context, type Next } from 'koa';
import type { Logger } from 'pino';
import type { AccessLog } from '../logging/logger.js';
import { actorFor, type Actor } from '../../domain/auth/actor.js';
import type { Authenticate } from '../../domain/auth/authenticate.js';
import type { LogInWithPassword } from '../../domain/auth/log-in-with-password.js';
import type { DomainError } from '../../domain/errors.js';
import { sendError } from './error-response.js';
import { openApiDocument } from './openapi.js';
import { readJsonBody } from './json-body.js';
import { checkPathEncoding, checkQueryEncoding, decodeBody, decodeHeaders, decodeParams, decodeQuery } from './fields.js';
import type { ContentType, Route, RouteTable } from './route-table.js';

export const API_PREFIX = '/api';

/**
 * Request ids: a random prefix per process and a counter, unique across restarts and instances
 * like a UUID, at a fraction of its cost on every request.
 */
function requestIds(): () => string {
  const boot = randomBytes(6).toString('base64url');
  let sequence = 0;
  return () => `${boot}-${(++sequence).toString(36)}`;
}
const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** `Bearer <token>`, case-insensitive scheme, exactly one token. */
const BEARER = /^Bearer +(\S+) *$/i;
/** `Basic <base64 of login:password>`, case-insensitive scheme. */
const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** What Koa's `ctx.type` would make of each type, without a MIME database lookup per response. */
const CONTENT_TYPE_HEADER: { readonly [T in ContentType]: string } = {
  'text/plain': 'text/plain; charset=utf-8',
  'application/json': 'application/json; charset=utf-8',
  'image/svg+xml': 'image/svg+xml',
  'image/png': 'image/png',
};

/**
 * A JSON answer as bytes, encoded once: given the object, Koa would measure the string it makes
 * for Content-Length, and Node would copy it again to join it to the headers and encode it for
 * the socket, a cost that grows with the answer (kilobytes for a dictionary definition).
 * `undefined`, which has no JSON, is answered `null`, as Koa answers it.
 */
const jsonBytes = (body: unknown): Buffer => Buffer.from(JSON.stringify(body) ?? 'null');

/** How much of an unknown path a 404 repeats: enough to recognise it, never a megabyte echoed back. */
const MAX_PATH_ECHOED = 200;
const echoedPath = (path: string): string => (path.length <= MAX_PATH_ECHOED ? path : `${path.slice(0, MAX_PATH_ECHOED)}…`);

/**
 * What HTTP/1.1 requires of every request and Node would have refused with a bare status line
 * (the server lets such requests through to be answered here like every other error): a `Host`
 * header, and no expectation but `100-continue`, the one this server meets.
 */
function protocolError(req: Context['req']): DomainError | undefined {
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
  readonly table: RouteTable;
  readonly authenticate: Authenticate;
  /** For the routes that take a password instead of a token. */
  readonly logIn: LogInWithPassword;
  /** Bugs and outages. */
  readonly logger: Logger;
  /** One line per request. */
  readonly accessLog: AccessLog;
  readonly maxBodyBytes: number;
}

export type Presented =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'bearer'; readonly secret: string }
  | { readonly kind: 'basic'; readonly login: string; readonly password: string };

/** What the Authorization header presents: nothing, something unusable, a bearer token, or a login and password. */
export function presentedSecret(header: string | undefined): Presented {
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  const bearer = BEARER.exec(header);
  if (bearer) return { kind: 'bearer', secret: bearer[1]! };
  const basic = BASIC.exec(header);
  return basic ? basicCredentials(basic[1]!) : { kind: 'malformed' };
}

/** `login:password` from strict base64 of UTF-8; the password may hold colons, the login may not be empty. */
function basicCredentials(encoded: string): Presented {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== encoded.replace(/=+$/, '')) return { kind: 'malformed' };
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { kind: 'malformed' };
  }
  const colon = text.indexOf(':');
  return colon > 0 ? { kind: 'basic', login: text.slice(0, colon), password: text.slice(colon + 1) } : { kind: 'malformed' };
}

export function createApp({ table, authenticate, logIn, logger, accessLog, maxBodyBytes }: AppDependencies): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  const router = new Router({ prefix: API_PREFIX });
  const nextRequestId = requestIds();

  // A path without parameters is found by one map lookup; the router, which tries its layers one
  // by one, answers the rest (parameters, a trailing slash, other letter case, HEAD) the same way.
  const exactRoutes = new Map<string, (ctx: Context) => Promise<void>>();
  for (const route of table.routes) {
    const handler = endpoint(route, authenticate, logIn, maxBodyBytes);
    router.register(route.path, [route.method], handler);
    if (!route.path.includes(':')) exactRoutes.set(`${route.method} ${API_PREFIX}${route.path}`, handler);
  }
  const description = openApiDocument(table, API_PREFIX);
  router.register('/openapi.json', ['GET'], (ctx: Context) => {
    ctx.body = description;
  });
  for (const redirect of table.redirects) {
    router.register(redirect.from, [redirect.method], (ctx: Context) => {
      ctx.status = 308;
      ctx.redirect(API_PREFIX + redirect.to + (ctx.querystring ? `?${ctx.querystring}` : ''));
    });
  }

  app.use(async (ctx: Context, next: Next) => {
    const started = performance.now();
    // Node's own header object, not Koa's delegating getters: this runs on every request.
    const incoming = ctx.req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : nextRequestId();
    ctx.state.requestId = requestId;
    ctx.res.setHeader('X-Request-Id', requestId);
    try {
      const refused = protocolError(ctx.req);
      if (refused) sendError(ctx, refused);
      else await next();
    } catch (error) {
      // Only bugs and outages get here; the client learns nothing of them but the request id.
      logger.error({ err: error, requestId }, 'request failed');
      sendError(ctx, { _tag: 'Unknown' });
    }
    // The query string is never logged: it carries the data users encrypt.
    accessLog({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 });
  });
  const routed = router.routes();
  app.use((ctx: Parameters<typeof routed>[0], next: Next) => {
    const exact = exactRoutes.get(`${ctx.method} ${ctx.path}`);
    return exact ? exact(ctx) : routed(ctx, next);
  });
  app.use(async (ctx: Context) => {
    const { path } = router.match(ctx.path, ctx.method);
    const allowed = [...new Set(path.flatMap((layer) => layer.methods))];
    if (allowed.length > 0) sendError(ctx, { _tag: 'MethodNotAllowed', allowed });
    else sendError(ctx, { _tag: 'InformationNotFound', details: `No endpoint ${ctx.method} ${echoedPath(ctx.path)}` });
  });
  return app;
}

/**
 * The actor of a request that presents something other than a bearer token: a user by their
 * password on a route that takes one; anywhere else that is no API key, as it always was.
 */
function passwordActor(route: Route, presented: Exclude<Presented, { kind: 'bearer' | 'none' }>, ctx: Context, logIn: LogInWithPassword): Promise<E.Either<DomainError, Actor>> {
  if (presented.kind === 'basic' && route.passwordLogin) {
    return logIn.execute({ login: presented.login, password: presented.password, clientAddress: ctx.req.socket.remoteAddress ?? 'unknown' });
  }
  return Promise.resolve(E.left({ _tag: 'InvalidApiKey' }));
}

function endpoint(route: Route, authenticate: Authenticate, logIn: LogInWithPassword, maxBodyBytes: number) {
  const takesHeaders = Object.keys(route.headers).length > 0;
  const pattern = API_PREFIX + route.path;
  const nothing = E.right({});
  return async (ctx: Context): Promise<void> => {
    const presented = presentedSecret(ctx.req.headers.authorization);
    let actor: Actor;
    if (presented.kind === 'bearer' || presented.kind === 'none') {
      const verdict = authenticate.execute(presented.kind === 'bearer' ? presented.secret : undefined, route.permission);
      // Most requests come with a recently verified token: no promise to wait for then.
      const principal = verdict instanceof Promise ? await verdict : verdict;
      if (E.isLeft(principal)) return sendError(ctx, principal.left);
      actor = actorFor(principal.right);
    } else {
      const other = await passwordActor(route, presented, ctx, logIn);
      if (E.isLeft(other)) return sendError(ctx, other.left);
      actor = other.right;
    }
    const badPath = route.params ? checkPathEncoding(pattern, ctx.path) : undefined;
    if (badPath) return sendError(ctx, badPath);
    const params = route.params ? decodeParams(route.params, (ctx as Context & { params: Record<string, string> }).params) : nothing;
    if (E.isLeft(params)) return sendError(ctx, params.left);
    const badQuery = checkQueryEncoding(ctx.querystring);
    if (badQuery) return sendError(ctx, badQuery);
    const query = decodeQuery(route.query, ctx.query);
    if (E.isLeft(query)) return sendError(ctx, query.left);
    const headers = takesHeaders ? decodeHeaders(route.headers, ctx.headers) : nothing;
    if (E.isLeft(headers)) return sendError(ctx, headers.left);
    let body: Record<string, unknown> = {};
    if (route.body) {
      const json = await readJsonBody(ctx, maxBodyBytes);
      const decoded = E.isLeft(json) ? json : decodeBody(route.body, json.right);
      if (E.isLeft(decoded)) return sendError(ctx, decoded.left);
      body = decoded.right;
    }
    const outcome = route.handle({ params: params.right, query: query.right, headers: headers.right, body, actor, requestId: ctx.state.requestId as string });
    const result = outcome instanceof Promise ? await outcome : outcome;
    if (E.isLeft(result)) return sendError(ctx, result.left);
    if (result.right.headers) ctx.set(result.right.headers);
    ctx.status = route.status;
    // The full header, set before the body so that Koa looks up no type of its own.
    ctx.response.set('Content-Type', CONTENT_TYPE_HEADER[result.right.contentType]);
    const answer = result.right;
    ctx.body = answer.contentType === 'application/json' ? jsonBytes(answer.body) : answer.body;
  };
}
