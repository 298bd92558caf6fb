/**
 * The package's `utility-api/client` entry: a typed HTTP client of the API for Node 20 and
 * browsers. Every operation is typed from the OpenAPI document the server serves (paths,
 * parameters, bodies, answers, errors); openapi-fetch builds the requests. Nothing here imports
 * the server: this folder needs only its generated types, openapi-fetch and the platform's fetch.
 */
import createFetchClient, {
  mergeHeaders,
  type HeadersOptions,
  type ParamsOption,
  type RequestBodyOption,
} from 'openapi-fetch';
import { answerOf, type Answer, type CatalogueError, type Failed } from './answers.js';
import type { paths } from './generated/api.js';

export type {
  Answer,
  CatalogueError,
  Failed,
  Failure,
  PolicyStanding,
  Refusal,
  Standings,
  Success,
} from './answers.js';
export type { components, operations, paths } from './generated/api.js';

/** The methods the API's operations use, as openapi-typescript names them. */
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths that have an operation for `M`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];

/** The operation `M` of path `P`, as the document describes it. */
export type OperationOf<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer Op } ? Op : never;

/** What a call gives besides the path: its parameters and body as the operation names them, headers, a signal. */
export type CallInit<Op> = ParamsOption<Op> &
  RequestBodyOption<Op> & {
    /** More request headers (the operation's own header parameters go in `params.header`). */
    readonly headers?: HeadersOptions;
    /** Stops the call; it then answers a failure of kind `aborted`. */
    readonly signal?: AbortSignal;
  };

/** The init is optional when the operation needs no parameter and no body. */
type InitArgument<Op> = object extends CallInit<Op> ? [init?: CallInit<Op>] : [init: CallInit<Op>];

type ResponsesOf<Op> = Op extends { responses: infer Responses } ? Responses : never;
/** What a response carries, by each content type it documents. */
type BodyOf<Response> = Response extends { content: infer Content } ? Content[keyof Content] : never;
/** The bodies of the operation's responses whose status starts with `First` (2 for successes). */
type BodiesWithStatus<Op, First extends string> = {
  [Status in keyof ResponsesOf<Op>]: `${Status & (string | number)}` extends `${First}${string}`
    ? BodyOf<ResponsesOf<Op>[Status]>
    : never;
}[keyof ResponsesOf<Op>];
/** The body of any success of the operation, by each content type it documents. */
export type DataOf<Op> = BodiesWithStatus<Op, '2'>;
/** The error object of any error the operation documents, its code narrowed to theirs. */
export type ErrorOf<Op> = Extract<BodiesWithStatus<Op, '4' | '5'>, CatalogueError>;

/** What `M` of `P` answers. */
export type AnswerOf<P extends keyof paths, M extends Method> = Answer<
  DataOf<OperationOf<P, M>>,
  ErrorOf<OperationOf<P, M>>
>;

type CallMethod<M extends Method> = <P extends PathsWith<M>>(
  path: P,
  ...init: InitArgument<OperationOf<P, M>>
) => Promise<AnswerOf<P, M>>;

export interface Client {
  GET: CallMethod<'get'>;
  POST: CallMethod<'post'>;
  PUT: CallMethod<'put'>;
  PATCH: CallMethod<'patch'>;
  DELETE: CallMethod<'delete'>;
}

/** A user's password login: the client asks for a token of its own with it, kept in memory. */
export interface PasswordLogin {
  /** The username or the email address. */
  readonly username: string;
  readonly password: string;
}

export interface RetryOptions {
  /** Tries after the first, at most. */
  readonly times: number;
  /** A `Retry-After` longer than this is not waited out: the 429 or 503 is the answer (default 60 000). */
  readonly maxWaitMs?: number;
}

export interface ClientOptions {
  /** Where the server is, without `/api`: `https://api.example.com`, or `''` for a page's own origin. */
  readonly baseUrl: string;
  /** A bearer token, or a user's password to log in with (`POST /api/token/create` with Basic). */
  readonly token?: string | PasswordLogin;
  /** The fetch to send with (default: the platform's own); for a proxy agent, a test's observer. */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** How long one try may take, answer body included; past it the call answers a failure of kind `timeout`. */
  readonly timeoutMs?: number;
  /**
   * Off by default. Retries a 429 or a 503 after its `Retry-After`, at most `times` times; a POST
   * or PATCH only when it carries an `Idempotency-Key`, since the server may have acted on it.
   */
  readonly retry?: RetryOptions;
}

/** The catalogue's code for an unknown or expired token: a password login's token is renewed on it. */
const INVALID_API_KEY = 4;
/** A token this close to its expiry is renewed before use rather than sent to fail. */
const RENEW_BEFORE_MS = 60_000;
/** The name a password login gives its token, to recognise it by in `GET /api/token/list`. */
export const LOGIN_TOKEN_NAME = 'utility-api client';

/** Methods that the server may have acted on when it answers 429 or 503: retried only with an Idempotency-Key. */
const NOT_IDEMPOTENT = new Set(['POST', 'PATCH']);

/**
 * The Authorization header of a password login: UTF-8 then base64, as the Basic scheme's
 * `user-pass` is sent (RFC 7617 with charset UTF-8). Exported for callers who log in themselves
 * (the console makes a token of hours and deletes it at sign-out).
 */
export const basicAuthorization = ({ username, password }: PasswordLogin): string => {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${username}:${password}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
};

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    const stop = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });

/** A token of the client's: given, or taken by a password login and renewed by it. */
interface Credentials {
  /** The Authorization header to send now, logging in first if need be; a failed login's answer otherwise. */
  authorization(): Promise<string | Failed | AnswerOf<'/api/token/create', 'post'> | undefined>;
  /** The token sent as `authorization` was refused as unknown or expired: whether a new one may be tried. */
  refused(authorization: string): boolean;
}

/** What a call's init holds, whatever its operation. */
interface AnyInit {
  readonly params?: { readonly header?: HeadersOptions } & Record<string, unknown>;
  readonly body?: unknown;
  readonly headers?: HeadersOptions;
  readonly signal?: AbortSignal;
}

type Send = (
  method: Uppercase<Method>,
  path: string,
  init: AnyInit | undefined,
  authorization: string | undefined,
) => Promise<Answer<unknown, CatalogueError>>;

function credentialsOf(token: ClientOptions['token'], send: Send): Credentials {
  if (token === undefined) return { authorization: async () => undefined, refused: () => false };
  if (typeof token === 'string') {
    const authorization = `Bearer ${token}`;
    return { authorization: async () => authorization, refused: () => false };
  }
  // Kept here alone, never on an object a caller can read or log.
  const basic = basicAuthorization(token);
  let current: { readonly authorization: string; readonly expiresAt: number } | undefined;
  let pending: Promise<string | Awaited<ReturnType<Credentials['authorization']>>> | undefined;
  const login = async () => {
    const answer = (await send('POST', '/api/token/create', { body: { name: LOGIN_TOKEN_NAME } }, basic)) as AnswerOf<
      '/api/token/create',
      'post'
    >;
    if (!answer.ok) return answer;
    const { token: secret, expiresAt } = answer.data;
    current = {
      authorization: `Bearer ${secret}`,
      expiresAt: expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(expiresAt),
    };
    return current.authorization;
  };
  return {
    authorization() {
      if (current && current.expiresAt - RENEW_BEFORE_MS > Date.now()) return Promise.resolve(current.authorization);
      // Calls made together share one login.
      pending ??= login().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    refused(authorization) {
      if (current?.authorization === authorization) current = undefined;
      return true;
    },
  };
}

/**
 * A client of the API at `baseUrl`. Each method takes a path of the document and what its
 * operation needs, and answers a value, never a rejection: `ok` with the body, the server's
 * catalogue `error`, or a `failure` (no answer, a timeout, an answer that is not the API's).
 *
 * ```ts
 * const api = createClient({ baseUrl: 'http://localhost:3000', token });
 * const answer = await api.GET('/api/crypto/enc', { params: { query: { data: 'hello' } } });
 * if (answer.ok) console.log(answer.data, answer.rateLimit?.remaining);
 * ```
 */
export function createClient(options: ClientOptions): Client {
  const fetchClient = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch && { fetch: options.fetch }),
  });
  const now = (): number => Date.now();

  /** One try: the request, its answer read, every way it can fail turned into a value. */
  const send: Send = async (method, path, init, authorization) => {
    const { signal, headers, ...rest } = init ?? {};
    const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
    const signals = [signal, timeout].filter((one): one is AbortSignal => one !== undefined);
    try {
      const { response, error } = (await fetchClient.request(
        method.toLowerCase() as Lowercase<typeof method>,
        path as never,
        {
          ...rest,
          headers: authorization === undefined ? headers : mergeHeaders(headers, { Authorization: authorization }),
          // The body is read by answerOf, by its content type; openapi-fetch reads an error's.
          parseAs: 'stream',
          ...(signals.length > 0 && { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) }),
        } as never,
      )) as { response: Response; error?: unknown };
      return await answerOf(response, error, now);
    } catch (cause) {
      if (timeout?.aborted) return { ok: false, failure: { kind: 'timeout', afterMs: options.timeoutMs! } };
      if (signal?.aborted) return { ok: false, failure: { kind: 'aborted' } };
      const message = cause instanceof Error ? cause.message : String(cause);
      return { ok: false, failure: { kind: 'network', message, cause } };
    }
  };

  const credentials = credentialsOf(options.token, send);

  /** The call with its token, renewed once when a password login's token was refused. */
  const authorized = async (
    method: Uppercase<Method>,
    path: string,
    init: AnyInit | undefined,
  ): Promise<Answer<unknown, CatalogueError>> => {
    for (let renewed = false; ; renewed = true) {
      const authorization = await credentials.authorization();
      if (authorization !== undefined && typeof authorization !== 'string') return authorization;
      const answer = await send(method, path, init, authorization);
      const expired =
        !answer.ok && answer.error !== undefined && answer.status === 401 && answer.error.code === INVALID_API_KEY;
      if (!expired || renewed || authorization === undefined || !credentials.refused(authorization)) return answer;
    }
  };

  const call = async (
    method: Uppercase<Method>,
    path: string,
    init: AnyInit | undefined,
  ): Promise<Answer<unknown, CatalogueError>> => {
    const retry = options.retry;
    const idempotent =
      !NOT_IDEMPOTENT.has(method) || mergeHeaders(init?.headers, init?.params?.header).has('Idempotency-Key');
    for (let tries = 0; ; tries += 1) {
      const answer = await authorized(method, path, init);
      if (
        retry === undefined ||
        tries >= retry.times ||
        !idempotent ||
        answer.error === undefined ||
        (answer.status !== 429 && answer.status !== 503) ||
        answer.retryAfterSeconds === undefined ||
        answer.retryAfterSeconds * 1000 > (retry.maxWaitMs ?? 60_000)
      )
        return answer;
      if (!(await sleep(answer.retryAfterSeconds * 1000, init?.signal)))
        return { ok: false, failure: { kind: 'aborted' } };
    }
  };

  const method =
    <M extends Method>(name: Uppercase<M>): CallMethod<M> =>
    (path, ...init) =>
      call(name, path, init[0] as AnyInit | undefined) as never;
  return {
    GET: method('GET'),
    POST: method('POST'),
    PUT: method('PUT'),
    PATCH: method('PATCH'),
    DELETE: method('DELETE'),
  };
}
