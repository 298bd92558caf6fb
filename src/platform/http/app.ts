import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import Koa, { type Context, type Next } from 'koa';
import type { Logger } from 'pino';
import type { AccessLog } from '../logging/logger.js';
import { actorFor, type Actor } from '../../domain/identity/actor.js';
import {
  catalogueEntryOf,
  outageCauseOf,
  type CatalogueError,
  type DomainError,
  type PlacedInputError,
} from '../../domain/errors.js';
import { NO_METRICS, UNMATCHED_OPERATION } from '../pipeline/metrics.js';
import type { Metrics, PasswordAuthentication, RateLimiter, TokenAuthentication } from '../pipeline/ports.js';
import { ADMIT_EVERY_REQUEST } from '../pipeline/rate-limiter.js';
import type { Principal } from '../../domain/identity/principal.js';
import { makeOnce } from '../caching/load-once.js';
import { docsPage } from './docs-page.js';
import { INERT_DOCUMENT_HEADERS } from './document-headers.js';
import { clientAddressOfRequest, throttledClientOf } from './client-address.js';
import { crossOrigin, type CorsSettings } from './cors.js';
import { sendError } from './error-response.js';
import { Health, HEALTH_CONTENT_TYPE, statusCodeOf, type HealthDocument } from './health.js';
import { openApiDocument } from './openapi.js';
import { changelogFeed, readChangelog } from './release.js';
import { readJsonBody } from './json-body.js';
import { ClientGone, declaresBody } from './unfinished-body.js';
import {
  checkPathEncoding,
  checkQueryEncoding,
  decodeBody,
  decodeHeaders,
  decodeParams,
  decodeQuery,
  parsedQuery,
  placed,
} from './fields.js';
import { announceStanding } from './rate-limit-fields.js';
import {
  API_PREFIX,
  familyOfRoute,
  fieldPlacesOf,
  servedPath,
  type ContentType,
  type ResponseBody,
  type Route,
  type RouteTable,
} from './route-table.js';
import { echoed, strictlyDecoded } from './well-formed.js';

export { API_PREFIX };

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
const BASIC_SCHEME = /^Basic(?: |$)/i;
/**
 * What a Basic value that cannot be read (not base64, no colon, not UTF-8) logs in as: a name no
 * account can have (usernames are a-z, 0-9, ".", "_" and "-"), so that it costs the same scrypt
 * verification as a wrong password and is counted, and throttled, as a failure like one.
 */
const UNREADABLE_BASIC: Presented = { kind: 'basic', login: ':', password: '' };

/**
 * The status logged and counted for a request whose client closed the connection before its
 * answer (nginx's "client closed request"): nobody received one, so it is neither a success nor
 * an error of ours.
 */
const CLIENT_GONE = 499;

/** What Koa's `ctx.type` would make of each type, without a MIME database lookup per response. */
const CONTENT_TYPE_HEADER: { readonly [T in ContentType]: string } = {
  'text/plain': 'text/plain; charset=utf-8',
  'application/xml': 'application/xml; charset=utf-8',
  'application/yaml': 'application/yaml; charset=utf-8',
  'application/json': 'application/json; charset=utf-8',
  'image/svg+xml': 'image/svg+xml',
  'image/png': 'image/png',
};

/** What answers of each type carry beside it: those a browser may show as a document say that it is inert. */
const DOCUMENT_HEADERS_OF: { readonly [T in ContentType]?: Readonly<Record<string, string>> } = {
  'application/xml': INERT_DOCUMENT_HEADERS,
  'image/svg+xml': INERT_DOCUMENT_HEADERS,
};

/**
 * Longest `Location` a redirect sends: Node's own client reads at most 16 KB of headers, and
 * others less; a target beyond it is refused rather than sent where the client cannot follow.
 */
const MAX_REDIRECT_TARGET_BYTES = 8_192;

/**
 * A JSON answer as bytes, encoded once: given the object, Koa would measure the string it makes
 * for Content-Length, and Node would copy it again to join it to the headers and encode it for
 * the socket, a cost that grows with the answer (kilobytes for a dictionary definition).
 * `undefined`, which has no JSON, is answered `null`, as Koa answers it.
 */
const jsonBytes = (body: unknown): Buffer => Buffer.from(JSON.stringify(body) ?? 'null');

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
  /** Which browser pages may call the API; none unless given. */
  readonly cors?: CorsSettings;
  /** What `/livez` and `/readyz` answer; with none given, an app that needs nothing and is always ready. */
  readonly health?: Health;
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
  if (!BASIC_SCHEME.test(header)) return { kind: 'malformed' };
  const basic = BASIC.exec(header);
  return (basic && basicCredentials(basic[1]!)) ?? UNREADABLE_BASIC;
}

/** `login:password` from strict base64 of UTF-8; the password may hold colons, the login may not be empty. */
function basicCredentials(encoded: string): Presented | undefined {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== encoded.replace(/=+$/, '')) return undefined;
  const text = strictlyDecoded(bytes);
  if (text === undefined) return undefined;
  const colon = text.indexOf(':');
  return colon > 0 ? { kind: 'basic', login: text.slice(0, colon), password: text.slice(colon + 1) } : undefined;
}

/** What the stages of every endpoint share. */
interface Stages {
  readonly authenticate: TokenAuthentication;
  readonly logIn: PasswordAuthentication;
  readonly rateLimiter: RateLimiter;
  readonly maxBodyBytes: number;
  /** Answers an error, logging the outage behind it if there is one. */
  readonly fail: (ctx: Context, error: CatalogueError, acceptsPassword?: boolean) => void;
}

/**
 * Why the query string of an endpoint outside the route table (which take no parameter) is
 * refused: any parameter is one it does not take (400/7 naming it), as on the table's routes.
 */
function refusalOfAnyQuery(querystring: string): CatalogueError | undefined {
  if (querystring === '') return undefined;
  const badEncoding = checkQueryEncoding(querystring);
  if (badEncoding) return badEncoding;
  const decoded = decodeQuery({}, parsedQuery(querystring));
  return E.isLeft(decoded) ? decoded.left : undefined;
}

/**
 * The request path, stage by stage: request id → authenticate → rate limit → decode → handle →
 * observe. The first and last wrap every request, found or not (with the protocol check and the
 * net for bugs between them); the middle ones are each endpoint's (see `endpoint`).
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
  cors,
  health = new Health([]),
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
  // Each built at its first request (together some 25 ms an app) and kept: neither changes while the process runs.
  const description = makeOnce(() => jsonBytes(openApiDocument(table, API_PREFIX)));
  router.register(`${API_PREFIX}/openapi.json`, ['GET'], (ctx: Context) => {
    ctx.state.operation = `GET ${API_PREFIX}/openapi.json`;
    const refused = refusalOfAnyQuery(ctx.querystring);
    if (refused) return fail(ctx, refused);
    ctx.response.set('Content-Type', CONTENT_TYPE_HEADER['application/json']);
    ctx.body = description();
  });
  const changelog = makeOnce(() => readChangelog());
  router.register(`${API_PREFIX}/changelog`, ['GET'], (ctx: Context) => {
    ctx.state.operation = `GET ${API_PREFIX}/changelog`;
    const refused = refusalOfAnyQuery(ctx.querystring);
    if (refused) return fail(ctx, refused);
    ctx.response.set('Content-Type', 'application/rss+xml; charset=utf-8');
    ctx.response.set(INERT_DOCUMENT_HEADERS);
    // The feed names where it is served, as the client reached it.
    ctx.body = changelogFeed(changelog(), `${ctx.protocol}://${ctx.host}${API_PREFIX}/changelog`);
  });
  for (const redirect of table.redirects) {
    const operation = `${redirect.method} ${API_PREFIX}${redirect.from}`;
    router.register(API_PREFIX + redirect.from, [redirect.method], (ctx: Context) => {
      ctx.state.operation = operation;
      ctx.status = 308;
      ctx.redirect(API_PREFIX + redirect.to + (ctx.querystring ? `?${ctx.querystring}` : ''));
      const target = ctx.response.get('Location');
      if (Buffer.byteLength(target) > MAX_REDIRECT_TARGET_BYTES) {
        ctx.remove('Location');
        fail(ctx, {
          _tag: 'RedirectTargetTooLong',
          details: `The new place with this query would be ${Buffer.byteLength(target)} bytes long, more than the ${MAX_REDIRECT_TARGET_BYTES} a redirect may send: ask ${API_PREFIX}${redirect.to} itself`,
        });
        return;
      }
      // Koa says where it redirects in a small page of HTML or text, which must not be taken for more.
      ctx.response.set(INERT_DOCUMENT_HEADERS);
    });
  }

  // Asked without a token, by load balancers and orchestrators.
  const answerHealth = (ctx: Context, document: HealthDocument): void => {
    ctx.status = statusCodeOf(document);
    ctx.response.set('Content-Type', HEALTH_CONTENT_TYPE);
    ctx.body = jsonBytes(document);
  };
  router.register('/livez', ['GET'], (ctx: Context) => {
    ctx.state.operation = 'GET /livez';
    const refused = refusalOfAnyQuery(ctx.querystring);
    if (refused) return fail(ctx, refused);
    answerHealth(ctx, health.live());
  });
  router.register('/readyz', ['GET'], async (ctx: Context) => {
    ctx.state.operation = 'GET /readyz';
    const refused = refusalOfAnyQuery(ctx.querystring);
    if (refused) return fail(ctx, refused);
    answerHealth(ctx, await health.ready());
  });

  /** The last stage: one access-log line and one observation per request, whatever the answer. */
  const observe = (ctx: Context, requestId: string, started: number): void => {
    const elapsed = performance.now() - started;
    // Nothing is sent yet: a connection already closed is a client that left without its answer.
    const status = ctx.req.socket?.destroyed ? CLIENT_GONE : ctx.status;
    // The query string is never logged: it carries the data users encrypt.
    accessLog({ requestId, method: ctx.req.method!, path: ctx.path, status, ms: Math.round(elapsed * 10) / 10 });
    metrics.observe((ctx.state.operation as string | undefined) ?? UNMATCHED_OPERATION, status, elapsed);
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
    observe(ctx, requestId, started);
  });
  // Inside the first stage, so that a preflight has a request id and is logged, and the headers
  // it sets stay on every error answered there.
  if (cors && cors.origins.length > 0) app.use(crossOrigin(table, cors));
  // One middleware finds the endpoint: each layer more of Koa's would cost every request a promise.
  const serveDocs = docsPage();
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
    if (serveDocs(ctx)) return undefined;
    return routed(ctx, async () => notFound(ctx));
  });
  return app;
}

/** The first stage: the client's request id when it is a sane one, else a new one; echoed in the answer. */
function assignRequestId(ctx: Context, nextRequestId: () => string): string {
  // Node's own header object, not Koa's delegating getters: this runs on every request.
  const incoming = ctx.req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : nextRequestId();
  ctx.state.requestId = requestId;
  ctx.res.setHeader('X-Request-Id', requestId);
  return requestId;
}

/**
 * A store or upstream outage is logged here, once, with the request it failed: the use case only
 * turned it into a catalogue error carrying the cause, and the client sees that error alone.
 */
function logOutage(logger: Logger, requestId: string, error: CatalogueError): void {
  const cause = outageCauseOf(error);
  if (cause !== undefined) logger.error({ err: cause, requestId, code: catalogueEntryOf(error).code }, 'outage');
}

const clientAddressOf = (ctx: Context): string => clientAddressOfRequest(ctx.app, ctx.req);

type Verdict<A> = E.Either<DomainError, A>;
/** What decoding refuses: fields its decoders placed, or path parameters the route places. */
type DecodeVerdict<A> = E.Either<DomainError | PlacedInputError, A>;
type HandlerInput = Parameters<Route['handle']>[0];

/**
 * The actor of a request that presents something other than a bearer token: a user by their
 * password on a route that takes one; anywhere else that is no API key, as it always was.
 */
function passwordActor(
  route: Route,
  presented: Exclude<Presented, { kind: 'bearer' | 'none' }>,
  ctx: Context,
  logIn: PasswordAuthentication,
): Promise<Verdict<Actor>> {
  if (presented.kind === 'basic' && route.passwordLogin) {
    return logIn.execute({
      login: presented.login,
      password: presented.password,
      clientAddress: throttledClientOf(clientAddressOf(ctx)),
    });
  }
  return Promise.resolve(E.left({ _tag: 'InvalidApiKey' }));
}

const principalActor = (verdict: Verdict<Principal>): Verdict<Actor> =>
  E.isLeft(verdict) ? verdict : E.right(actorFor(verdict.right));

/** The authenticate stage of a route: who asks, by bearer token or, where the route takes one, by password. */
function authenticator(
  route: Route,
  { authenticate, logIn }: Stages,
): (ctx: Context) => Verdict<Actor> | Promise<Verdict<Actor>> {
  return (ctx) => {
    const presented = presentedSecret(ctx.req.headers.authorization);
    if (presented.kind !== 'bearer' && presented.kind !== 'none') return passwordActor(route, presented, ctx, logIn);
    const verdict = authenticate.execute(presented.kind === 'bearer' ? presented.secret : undefined, route.permission);
    // Most requests come with a recently verified token: no promise to wait for then.
    return verdict instanceof Promise ? verdict.then(principalActor) : principalActor(verdict);
  };
}

/** The decode stage of a route: path, query, headers and body checked against its codecs, in that order. */
function decoder(
  route: Route,
  serverMaxBodyBytes: number,
): (ctx: Context, actor: Actor) => DecodeVerdict<HandlerInput> | Promise<DecodeVerdict<HandlerInput>> {
  const takesHeaders = Object.keys(route.headers).length > 0;
  const pattern = servedPath(route);
  const nothing = E.right({});
  const bodySchema = route.body;
  const maxBodyBytes = route.maxBodyBytes ?? serverMaxBodyBytes;
  return (ctx, actor) => {
    const badPath = route.params ? checkPathEncoding(pattern, ctx.path) : undefined;
    if (badPath) return E.left(badPath);
    const params = route.params
      ? decodeParams(route.params, (ctx as Context & { params: Record<string, string> }).params)
      : nothing;
    if (E.isLeft(params)) return params;
    const querystring = ctx.querystring;
    const badQuery = checkQueryEncoding(querystring);
    if (badQuery) return E.left(badQuery);
    const query = decodeQuery(route.query, parsedQuery(querystring));
    if (E.isLeft(query)) return query;
    const headers = takesHeaders ? decodeHeaders(route.headers, ctx.headers) : nothing;
    if (E.isLeft(headers)) return headers;
    const requestId = ctx.state.requestId as string;
    const accept = ctx.req.headers.accept;
    if (!bodySchema) {
      // A body where the endpoint takes none is refused, never ignored (`{"username": "carol"}` must
      // not pass for a request about someone else); what is left of it unread ends the connection.
      if (declaresBody(ctx.req.headers)) {
        ctx.set('Connection', 'close');
        return E.left({ _tag: 'InvalidBodyParameter', names: [], details: 'this endpoint takes no body' });
      }
      return E.right({
        params: params.right,
        query: query.right,
        headers: headers.right,
        body: {},
        additional: {},
        actor,
        requestId,
        accept,
      });
    }
    return readJsonBody(ctx, maxBodyBytes).then((json) => {
      const body = E.isLeft(json) ? json : decodeBody(bodySchema, json.right, route.additionalBody);
      if (E.isLeft(body)) return body;
      const { fields, additional } = body.right;
      return E.right({
        params: params.right,
        query: query.right,
        headers: headers.right,
        body: fields,
        additional,
        actor,
        requestId,
        accept,
      });
    });
  };
}

/** A success as the client sees it: the route's status, its headers, the full content type, JSON encoded once. */
function respond(ctx: Context, status: number, answer: ResponseBody): void {
  if (answer.headers) ctx.set(answer.headers);
  ctx.status = status;
  // The full header, set before the body so that Koa looks up no type of its own.
  ctx.response.set('Content-Type', CONTENT_TYPE_HEADER[answer.contentType]);
  const documentHeaders = DOCUMENT_HEADERS_OF[answer.contentType];
  if (documentHeaders) ctx.response.set(documentHeaders);
  ctx.body = answer.contentType === 'application/json' ? jsonBytes(answer.body) : answer.body;
}

/**
 * One endpoint: authenticate → rate limit → decode → handle, then the answer. Each stage gives a
 * value when it can and a promise only when it must wait, so that the common request (a cached
 * token, no body, a synchronous use case) waits for nothing but itself.
 */
function endpoint(route: Route, stages: Stages): (ctx: Context) => Promise<void> {
  const operation = `${route.method} ${servedPath(route)}`;
  const identify = authenticator(route, stages);
  const decode = decoder(route, stages.maxBodyBytes);
  const { rateLimiter } = stages;
  // A refused key on a route that also takes a password is answered offering Basic beside Bearer.
  const acceptsPassword = route.passwordLogin === true;
  const placeOf = fieldPlacesOf(route);
  /** The domain names the fields of refused input; the route knows where each came from. */
  const fail = (ctx: Context, error: DomainError | PlacedInputError, offerBasic = false): void =>
    stages.fail(
      ctx,
      error._tag === 'MissingInput' || error._tag === 'InvalidInput'
        ? placed(error, placeOf(error.fields[0] ?? ''))
        : error,
      offerBasic,
    );
  if (route.disabled) {
    const turnedOff: DomainError = {
      _tag: 'EndpointDisabled',
      details: `The ${familyOfRoute(route)} endpoints are turned off on this installation (features.disabled)`,
    };
    return async (ctx: Context): Promise<void> => {
      ctx.state.operation = operation;
      fail(ctx, turnedOff);
    };
  }
  return async (ctx: Context): Promise<void> => {
    ctx.state.operation = operation;
    const identified = identify(ctx);
    const actor = identified instanceof Promise ? await identified : identified;
    if (E.isLeft(actor)) return fail(ctx, actor.left, acceptsPassword);
    const admitted = rateLimiter.admit(operation, actor.right, clientAddressOf(ctx));
    const standing = admitted instanceof Promise ? await admitted : admitted;
    if (standing) {
      announceStanding(ctx.res, standing);
      if (standing.refusal) return fail(ctx, standing.refusal);
    }
    const decoded = decode(ctx, actor.right);
    const input = decoded instanceof Promise ? await decoded : decoded;
    if (E.isLeft(input)) return fail(ctx, input.left);
    const handled = route.handle(input.right);
    const result = handled instanceof Promise ? await handled : handled;
    if (E.isLeft(result)) return fail(ctx, result.left);
    respond(ctx, route.status, result.right);
  };
}
