/**
 * What the client makes of an HTTP answer: a success with its body read by its content type, a
 * catalogue error, or a failure that is neither (a body that cannot be read, no answer at all).
 * Each carries the rate-limit and quota standing the server announced.
 */

/** A policy's standing as the IETF RateLimit fields announce it (`RateLimit-Policy` and `RateLimit`). */
export interface PolicyStanding {
  /** The policy's name: `default` (the installation's), `token` (the token's own), `quota`. */
  readonly policy: string;
  /** Requests the policy allows in a window (`q`). */
  readonly limit: number;
  /** The window, in seconds (`w`): for a quota, the UTC day or calendar month. */
  readonly windowSeconds: number;
  /** What remains in the current window (`r`). */
  readonly remaining: number;
  /** Seconds until the current window ends (`t`). */
  readonly resetSeconds: number;
}

/** The standing of the request rate limit and of the quota, when the answer announced them. */
export interface Standings {
  /** The request rate limit the call was counted under. */
  readonly rateLimit?: PolicyStanding;
  /** The requests left of the caller's quota, for a token or user with one. */
  readonly quota?: PolicyStanding;
}

/** The error object of the catalogue (docs/errors.md), typed per operation by the codes it documents. */
export interface CatalogueError {
  readonly code: number;
  readonly message: string;
  readonly details?: string;
}

export interface Success<Data> extends Standings {
  readonly ok: true;
  readonly data: Data;
  readonly status: number;
  readonly headers: Headers;
  readonly retryAfterSeconds?: undefined;
  readonly error?: undefined;
  readonly failure?: undefined;
}

/** The server refused the call with an error of its catalogue. */
export interface Refusal<Error extends CatalogueError = CatalogueError> extends Standings {
  readonly ok: false;
  readonly error: Error;
  readonly status: number;
  readonly headers: Headers;
  /** Seconds to wait before trying again, from `Retry-After` (on a 429 or 503). */
  readonly retryAfterSeconds?: number;
  readonly data?: undefined;
  readonly failure?: undefined;
}

/** No answer of the API's: the call may or may not have reached the server. */
export type Failure =
  /** The request could not be sent or its answer not received (refused connection, DNS, CORS, reset). */
  | { readonly kind: 'network'; readonly message: string; readonly cause: unknown }
  /** No complete answer within `timeoutMs`. */
  | { readonly kind: 'timeout'; readonly afterMs: number }
  /** The caller's own AbortSignal stopped it. */
  | { readonly kind: 'aborted' }
  /** An answer that is not the API's: a body that is not what its content type says, or an error that is not of the catalogue (a proxy's HTML page, say). */
  | {
      readonly kind: 'unreadable';
      readonly status: number;
      readonly headers: Headers;
      readonly contentType: string | null;
      /** The body as text, cut at 1000 characters. */
      readonly body: string;
    };

/** No status, headers or standings: the fields are there, undefined, so that any answer can be asked for them. */
export interface Failed {
  readonly ok: false;
  readonly failure: Failure;
  readonly data?: undefined;
  readonly error?: undefined;
  readonly status?: undefined;
  readonly headers?: undefined;
  readonly rateLimit?: undefined;
  readonly quota?: undefined;
  readonly retryAfterSeconds?: undefined;
}

export type Answer<Data, Error extends CatalogueError = CatalogueError> = Success<Data> | Refusal<Error> | Failed;

const POLICY_ITEM = /^"([a-z]+)";q=(\d+);w=(\d+)$/;
const STANDING_ITEM = /^"([a-z]+)";r=(\d+);t=(\d+)$/;

/**
 * The standings an answer's RateLimit fields announce: each field a list of one item per policy,
 * in the same order. An item that does not parse is left out rather than guessed at.
 */
export function standingsOf(headers: Headers): Standings {
  const items = (field: string | null): string[] => (field ? field.split(',').map((item) => item.trim()) : []);
  const policies = new Map<string, { limit: number; windowSeconds: number }>();
  for (const item of items(headers.get('RateLimit-Policy'))) {
    const match = POLICY_ITEM.exec(item);
    if (match) policies.set(match[1]!, { limit: Number(match[2]), windowSeconds: Number(match[3]) });
  }
  let rateLimit: PolicyStanding | undefined;
  let quota: PolicyStanding | undefined;
  for (const item of items(headers.get('RateLimit'))) {
    const match = STANDING_ITEM.exec(item);
    const policy = match && policies.get(match[1]!);
    if (!match || !policy) continue;
    const standing = { policy: match[1]!, ...policy, remaining: Number(match[2]), resetSeconds: Number(match[3]) };
    if (standing.policy === 'quota') quota ??= standing;
    else rateLimit ??= standing;
  }
  return { ...(rateLimit && { rateLimit }), ...(quota && { quota }) };
}

/** The HTTP date's one form a sender may use (RFC 9110 §5.6.7): `Fri, 27 Nov 2026 12:00:30 GMT`. */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** `Retry-After` in seconds: whole seconds (what this server sends) or an HTTP date. */
export function retryAfterSecondsOf(headers: Headers, now: number): number | undefined {
  const value = headers.get('Retry-After')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (!IMF_FIXDATE.test(value)) return undefined;
  return Math.max(0, Math.ceil((Date.parse(value) - now) / 1000));
}

const isJson = (contentType: string | null): boolean =>
  contentType !== null && /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType);
const isText = (contentType: string | null): boolean =>
  contentType !== null && /^(text\/|application\/([\w.-]+\+)?(xml|yaml)\s*(;|$))/i.test(contentType);

const isCatalogueError = (value: unknown): value is CatalogueError => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { code, message, details } = value as Record<string, unknown>;
  return (
    typeof code === 'number' &&
    Number.isInteger(code) &&
    typeof message === 'string' &&
    (details === undefined || typeof details === 'string')
  );
};

const unreadable = (response: Response, text: string): Failed => ({
  ok: false,
  failure: {
    kind: 'unreadable',
    status: response.status,
    headers: response.headers,
    contentType: response.headers.get('Content-Type'),
    body: text.slice(0, 1000),
  },
});

/**
 * The answer `response` gives. An error's body is the one openapi-fetch read (parsed when it was
 * JSON, else its text); a success's body is read here, by its content type: JSON (`application/json`,
 * `…+json`) parsed, text, XML and YAML as a string, anything else (images) as a Blob. A redirect
 * that was followed has already become the answer of the place it led to.
 */
export async function answerOf<Data, Error extends CatalogueError>(
  response: Response,
  errorBody: unknown,
  now: () => number,
): Promise<Answer<Data, Error>> {
  const contentType = response.headers.get('Content-Type');
  const standings = standingsOf(response.headers);
  if (!response.ok) {
    if (!isJson(contentType) || !isCatalogueError(errorBody))
      return unreadable(
        response,
        typeof errorBody === 'string' ? errorBody : errorBody === undefined ? '' : JSON.stringify(errorBody),
      );
    const retryAfterSeconds = retryAfterSecondsOf(response.headers, now());
    return {
      ok: false,
      error: errorBody as Error,
      status: response.status,
      headers: response.headers,
      ...standings,
      ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
    };
  }
  const success = (data: unknown): Success<Data> => ({
    ok: true,
    data: data as Data,
    status: response.status,
    headers: response.headers,
    ...standings,
  });
  if (response.status === 204) return success(undefined);
  if (isJson(contentType)) {
    const text = await response.text();
    try {
      return success(JSON.parse(text));
    } catch {
      return unreadable(response, text);
    }
  }
  if (contentType === null || isText(contentType)) return success(await response.text());
  return success(await response.blob());
}
