import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { CatalogueError } from '../../domain/errors.js';
import { errorResponse } from './error-response.js';
import { trackConnections, type ConnectionDrain, type DrainSettings } from './graceful-shutdown.js';


/** Every method some endpoint answers; CONNECT is none of them: this server is no proxy. */
const METHODS_SERVED = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'];

/** The catalogue's JSON error object written straight to a socket that Koa never gets. */
function writeError(socket: Duplex, error: CatalogueError): void {
  const { status, body, headers } = errorResponse(error);
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
      'Connection: close\r\n\r\n' +
      json,
  );
}

/** What the parser's refusal says to the client; llhttp's reason ("Invalid HTTP version") is plain text of its own. */
function parserRefusal(error: NodeJS.ErrnoException & { reason?: unknown }, maxHeaderBytes: number): CatalogueError {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { _tag: 'RequestTooLarge', details: `The request line and headers must fit in ${maxHeaderBytes} bytes` };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { _tag: 'InvalidHeader', names: [], details: 'The request did not arrive in the time allowed' };
  const reason = typeof error.reason === 'string' ? `: ${error.reason}` : '';
  return { _tag: 'InvalidHeader', names: [], details: `Malformed HTTP request${reason}` };
}

/**
 * Node refuses some requests before Koa sees them, each with a bare status line and no body;
 * ours is the same JSON error object as every other error:
 * - the parser's refusals (a request line or headers beyond maxHeaderSize, malformed HTTP), in
 *   `clientError`;
 * - `CONNECT`, which Node hands to a `connect` listener or else drops;
 * - an HTTP/1.1 request without `Host` and an `Expect` other than `100-continue`, which the app
 *   refuses itself: Node is told not to (`requireHostHeader: false`, a `checkExpectation`
 *   listener that passes the request on).
 */
export interface HttpServerSettings extends DrainSettings {
  readonly maxHeaderBytes: number;
}

export interface HttpServer {
  readonly server: Server;
  /** Its connections, watched from before it listens: to stop it without losing a request. */
  readonly connections: ConnectionDrain;
}

export function createHttpServer(app: Koa, { maxHeaderBytes, idleGraceMs }: HttpServerSettings): HttpServer {
  const handleInApp = app.callback();
  // Tracked and handled in one listener: a second 'request' listener would cost every request.
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    connections.track(request, response);
    void handleInApp(request, response);
  };
  const server = createServer({ maxHeaderSize: maxHeaderBytes, requireHostHeader: false }, handle);
  const connections = trackConnections(server, { idleGraceMs });
  server.on('checkExpectation', handle);
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    writeError(socket, { _tag: 'MethodNotAllowed', allowed: METHODS_SERVED });
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { reason?: unknown }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = parserRefusal(error, maxHeaderBytes);
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
