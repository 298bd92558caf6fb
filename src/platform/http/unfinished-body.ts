import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import type { CatalogueError } from '../../domain/errors.js';

/** Whether a request says a body follows it: a length above 0, or chunks. */
export const declaresBody = (headers: IncomingHttpHeaders): boolean =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/** The server gave up on a request's body (it stopped arriving, or it was malformed): its reader answers this refusal. */
export class BodyRefused extends Error {
  constructor(readonly refusal: CatalogueError) {
    super(`request body refused (${refusal._tag})`);
  }
}

/** The client went away before its request was answered: there is nobody left to answer. */
export class ClientGone extends Error {
  constructor() {
    super('the client went away before its answer');
  }
}

/** Both the event a refusal is told by and where it stays, for a reader that comes later. */
const REFUSED = Symbol('bodyRefused');
type Watched = IncomingMessage & { [REFUSED]?: BodyRefused };

/**
 * Gives up on the body of a request still arriving. Whoever reads it (or is about to) answers the
 * refusal instead; the answer closes the connection, since what would come of the body would be
 * read as the next request. An answer already sent has nothing more to say: the connection is
 * closed once it is written.
 */
export function refuseBody(request: IncomingMessage, response: ServerResponse, refusal: CatalogueError): void {
  const watched = request as Watched;
  if (watched[REFUSED] !== undefined) return;
  const refused = new BodyRefused(refusal);
  watched[REFUSED] = refused;
  const socket = request.socket;
  if (response.headersSent) {
    if (response.writableFinished) socket.destroy();
    else response.once('close', () => socket.destroy());
    return;
  }
  response.setHeader('Connection', 'close');
  request.emit(REFUSED, refused);
}

/**
 * The body's bytes, at most `limit`, as raw-body reads them; rejects with `BodyRefused` as soon as
 * the server gives up on the body, and with `ClientGone` when the client has left.
 */
export function readBodyBytes(
  request: IncomingMessage,
  options: { readonly limit: number; readonly length?: string },
): Promise<Buffer> {
  const watched = request as Watched;
  if (watched[REFUSED] !== undefined) return Promise.reject(watched[REFUSED]);
  if (request.socket?.destroyed) return Promise.reject(new ClientGone());
  return new Promise<Buffer>((resolve, reject) => {
    request.once(REFUSED, reject);
    getRawBody(request, { ...options })
      .then(resolve, (error: unknown) =>
        reject((error as { type?: string }).type === 'request.aborted' ? new ClientGone() : error),
      )
      .finally(() => request.off(REFUSED, reject));
  });
}
