import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { DomainError } from '../../domain/errors.js';
import { errorResponse } from './error-response.js';

const REASON: Record<number, string> = { 400: 'Bad Request', 431: 'Request Header Fields Too Large' };

/**
 * Node's HTTP parser rejects some requests before Koa sees them (a request line or headers
 * beyond maxHeaderSize, malformed HTTP). Node's own reply there is a bare status line; ours is
 * the same JSON error object as every other error.
 */
export function createHttpServer(app: Koa, maxHeaderBytes: number): Server {
  const server = createServer({ maxHeaderSize: maxHeaderBytes }, app.callback());
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const domainError: DomainError =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? { _tag: 'RequestTooLarge', details: `The request line and headers must fit in ${maxHeaderBytes} bytes` }
        : { _tag: 'InvalidHeader', names: [], details: 'Malformed HTTP request' };
    const { status, body } = errorResponse(domainError);
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${REASON[status] ?? 'Error'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  });
  return server;
}
