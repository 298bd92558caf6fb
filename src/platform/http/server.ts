import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { CatalogueError } from '../../domain/errors.js';
import { errorResponse } from './error-response.js';
import { trackConnections, type ConnectionDrain, type ConnectionSettings } from './graceful-shutdown.js';
import { refuseBody } from './unfinished-body.js';

/** Every method some endpoint answers; CONNECT is none of them: this server is no proxy. */
const METHODS_SERVED = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'];

/**
 * How long a connection refused by a bare answer stays half-open for its client to read the answer
 * and close it; a client that does neither (one that stopped sending its headers) loses it then.
 */
const LINGER_MS = 2_000;

/** The catalogue's JSON error object written straight to a socket that Koa never gets. */
function writeError(socket: Duplex, error: CatalogueError): void {
  const { status, body, headers } = errorResponse(error);
  const json = JSON.stringify(body);
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(cut));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      'Connection: close\r\n\r\n' +
      json,
  );
}

/** What the parser's refusal says to the client; llhttp's reason ("Invalid HTTP version") is plain text of its own. */
function parserRefusal(
  error: NodeJS.ErrnoException & { reason?: unknown },
  { maxHeaderBytes, headersTimeoutMs }: HttpServerSettings,
): CatalogueError {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { _tag: 'RequestTooLarge', details: `The request line and headers must fit in ${maxHeaderBytes} bytes` };
  // Node's headersTimeout (the server has no requestTimeout: bodies have a deadline of their own).
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      _tag: 'RequestTimeout',
      details: `The request line and headers did not arrive within ${headersTimeoutMs} ms`,
    };
  const reason = typeof error.reason === 'string' ? `: ${error.reason}` : '';
  return { _tag: 'InvalidHeader', names: [], details: `Malformed HTTP request${reason}` };
}

/**
 * Node refuses some requests before Koa sees them, each with a bare status line and no body;
 * ours is the same JSON error object as every other error:
 * - the parser's refusals (a request line or headers beyond maxHeaderSize, malformed HTTP,
 *   headers still incomplete after headersTimeoutMs), in `clientError`; one in the body of a
 *   request already handed to the app (a malformed chunk) is that request's answer;
 * - `CONNECT`, which Node hands to a `connect` listener or else drops;
 * - an HTTP/1.1 request without `Host` and an `Expect` other than `100-continue`, which the app
 *   refuses itself: Node is told not to (`requireHostHeader: false`, a `checkExpectation`
 *   listener that passes the request on).
 */
export interface HttpServerSettings extends ConnectionSettings {
  readonly maxHeaderBytes: number;
  /** How long the request line and headers may take to arrive, from their first byte. */
  readonly headersTimeoutMs: number;
  /** How long a connection with no request in progress stays open for the client's next one. */
  readonly keepAliveTimeoutMs: number;
  /**
   * How long a connection with a request in progress may go without a byte read or sent before it
   * is closed: chiefly an answer its client does not read (the server's own work on a request has
   * deadlines far shorter). Node counts an answer the kernel is still taking as progress.
   */
  readonly socketTimeoutMs: number;
}

export interface HttpServer {
  readonly server: Server;
  /** Its connections, watched from before it listens: to stop it without losing a request. */
  readonly connections: ConnectionDrain;
}

/**
 * How often Node looks for requests whose headers are late: its default, 30 s, cuts a 60 s
 * timeout anywhere between 60 and 90 s.
 */
const headersCheckIntervalMs = (headersTimeoutMs: number): number =>
  Math.max(10, Math.min(1_000, Math.floor(headersTimeoutMs / 4)));

export function createHttpServer(app: Koa, settings: HttpServerSettings): HttpServer {
  const { maxHeaderBytes, headersTimeoutMs, keepAliveTimeoutMs, socketTimeoutMs } = settings;
  const handleInApp = app.callback();
  // Tracked and handled in one listener: a second 'request' listener would cost every request.
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    connections.track(request, response);
    void handleInApp(request, response);
  };
  const server = createServer(
    {
      maxHeaderSize: maxHeaderBytes,
      requireHostHeader: false,
      headersTimeout: headersTimeoutMs,
      // Node's requestTimeout would count the body from the first byte of the headers, and answer
      // a body cut short through clientError, where the request is already the app's: bodies have
      // their own deadline (see trackConnections).
      requestTimeout: 0,
      connectionsCheckingInterval: headersCheckIntervalMs(headersTimeoutMs),
    },
    handle,
  );
  server.keepAliveTimeout = keepAliveTimeoutMs;
  // With no 'timeout' listener, Node destroys a socket idle for this long: without it, a client that
  // sends requests and never reads their answers held its socket for ever.
  server.timeout = socketTimeoutMs;
  const connections = trackConnections(server, settings);
  server.on('checkExpectation', handle);
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    writeError(socket, { _tag: 'MethodNotAllowed', allowed: METHODS_SERVED });
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { reason?: unknown }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const unfinished = connections.unfinishedBody(socket);
    if (unfinished !== undefined) {
      // In the body of a request the app has: a client that closes its side mid-body will never
      // finish it, and is let go at once; a malformed body is that request's answer.
      if (error.code === 'HPE_INVALID_EOF_STATE') socket.destroy();
      else refuseBody(unfinished.request, unfinished.response, parserRefusal(error, settings));
      return;
    }
    const refusal = parserRefusal(error, settings);
    // Answers go out in the order of the requests: the refusal of bytes that follow a request on
    // the same connection waits for that request's answer (the last one still being written).
    const pending = connections.lastPendingAnswer(socket);
    if (pending === undefined || pending.writableFinished) {
      writeError(socket, refusal);
      return;
    }
    const afterAnswer = () => (socket.writable ? writeError(socket, refusal) : socket.destroy());
    pending.once('finish', afterAnswer);
    pending.once('close', () => pending.writableFinished || socket.destroy());
  });
  return { server, connections };
}
