import type { Context } from 'koa';
import { INERT_DOCUMENT_HEADERS } from './document-headers.js';
import type { ContentType, ResponseBody } from './route-table.js';

/** What Koa's `ctx.type` would make of each type, without a MIME database lookup per response. */
const CONTENT_TYPE_HEADER: { readonly [T in ContentType]: string } = {
  'text/plain': 'text/plain; charset=utf-8',
  'text/html': 'text/html; charset=utf-8',
  'text/javascript': 'text/javascript; charset=utf-8',
  'text/css': 'text/css; charset=utf-8',
  'application/xml': 'application/xml; charset=utf-8',
  'application/yaml': 'application/yaml; charset=utf-8',
  'application/json': 'application/json; charset=utf-8',
  'application/rss+xml': 'application/rss+xml; charset=utf-8',
  'application/health+json': 'application/health+json',
  'image/svg+xml': 'image/svg+xml',
  'image/png': 'image/png',
};

/** What answers of each type carry beside it: those a browser may show as a document say that it is inert. */
const DOCUMENT_HEADERS_OF: { readonly [T in ContentType]?: Readonly<Record<string, string>> } = {
  'application/xml': INERT_DOCUMENT_HEADERS,
  'application/rss+xml': INERT_DOCUMENT_HEADERS,
  'image/svg+xml': INERT_DOCUMENT_HEADERS,
};

/**
 * A JSON answer as bytes, encoded once: given the object, Koa would measure the string it makes
 * for Content-Length, and Node would copy it again to join it to the headers and encode it for
 * the socket, a cost that grows with the answer (kilobytes for a dictionary definition).
 * `undefined`, which has no JSON, is answered `null`, as Koa answers it.
 */
export const jsonBytes = (body: unknown): Buffer => Buffer.from(JSON.stringify(body) ?? 'null');

/** What the handler gives, as sent: JSON encoded here, anything else (a prepared body too) as it is. */
const bodyOf = (answer: ResponseBody): unknown =>
  (answer.contentType === 'application/json' || answer.contentType === 'application/health+json') &&
  !('prepared' in answer)
    ? jsonBytes(answer.body)
    : answer.body;

/** A success as the client sees it: the route's status, its headers, the full content type, JSON encoded once. */
export function respond(ctx: Context, status: number, answer: ResponseBody): void {
  if (answer.headers) ctx.set(answer.headers);
  ctx.status = 'status' in answer ? answer.status : status;
  // The full header, set before the body so that Koa looks up no type of its own.
  ctx.response.set('Content-Type', CONTENT_TYPE_HEADER[answer.contentType]);
  const documentHeaders = DOCUMENT_HEADERS_OF[answer.contentType];
  if (documentHeaders) ctx.response.set(documentHeaders);
  ctx.body = bodyOf(answer);
}
