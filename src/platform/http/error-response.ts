import type { Context } from 'koa';
import { catalogueEntryOf, detailsOf, suggestionsOf, type CatalogueError } from '../../domain/errors.js';

export interface ErrorBody {
  readonly code: number;
  readonly message: string;
  readonly details?: string;
  /** Words to ask for instead of one the dictionary does not know, the closest first. */
  readonly suggestions?: readonly string[];
}

export interface ErrorResponse {
  readonly status: number;
  readonly body: ErrorBody;
  /** What the client needs to act on the error: when to retry, how to authenticate, what is allowed. */
  readonly headers: Readonly<Record<string, string>>;
}

const REALM = 'realm="utility-api"';
const BEARER_CHALLENGE = `Bearer ${REALM}`;
/** RFC 7617: the password is UTF-8, as the Basic decoder reads it. */
const BEARER_OR_BASIC_CHALLENGE = `${BEARER_CHALLENGE}, Basic ${REALM}, charset="UTF-8"`;
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
/** Long enough for a restarted database or a failover to come back, short enough not to lose the client. */
const STORAGE_RETRY: Readonly<Record<string, string>> = Object.freeze({ 'Retry-After': '5' });
/** Work refused for a full queue: the queue drains in fractions of a second. */
const BUSY_RETRY: Readonly<Record<string, string>> = Object.freeze({ 'Retry-After': '1' });

/**
 * The headers an error answer carries: from the error, and for a refused key from the route too,
 * which offers Basic beside Bearer where it also takes a password.
 */
export function errorHeaders(error: CatalogueError, acceptsPassword = false): Readonly<Record<string, string>> {
  switch (error._tag) {
    case 'MissingApiKey':
    case 'InvalidApiKey':
      return { 'WWW-Authenticate': acceptsPassword ? BEARER_OR_BASIC_CHALLENGE : BEARER_CHALLENGE };
    case 'MethodNotAllowed':
      return { Allow: error.allowed.join(', ') };
    case 'RateLimited':
      return error.retryAfterSeconds === undefined ? NO_HEADERS : { 'Retry-After': String(error.retryAfterSeconds) };
    case 'MailQuotaExceeded':
    case 'QuotaExceeded':
      return { 'Retry-After': String(error.retryAfterSeconds) };
    case 'StorageUnavailable':
      return STORAGE_RETRY;
    case 'ServiceBusy':
      return BUSY_RETRY;
    default:
      return NO_HEADERS;
  }
}

/** The one place that turns an error into what the client sees. */
export function errorResponse(error: CatalogueError, acceptsPassword = false): ErrorResponse {
  const { code, status, message } = catalogueEntryOf(error);
  const details = detailsOf(error);
  const suggestions = suggestionsOf(error);
  return {
    status,
    body: {
      code,
      message,
      ...(details === undefined ? {} : { details }),
      ...(suggestions === undefined ? {} : { suggestions }),
    },
    headers: errorHeaders(error, acceptsPassword),
  };
}

export function sendError(ctx: Context, error: CatalogueError, acceptsPassword = false): void {
  const { status, body, headers } = errorResponse(error, acceptsPassword);
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = body;
  ctx.set(headers);
}
