import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { declaresBody, refuseBody } from './unfinished-body.js';

export interface DrainSettings {
  /**
   * How long a connection with no request in progress stays open once the drain has begun. Its
   * client may be about to reuse it: the last answer it had said keep-alive, and its next request
   * may be on the wire or already unread in the kernel. Node's `server.close()` and
   * `closeIdleConnections()` destroy such a socket at once and that request is lost with a reset.
   * A client still busy sends within the grace and is answered with `Connection: close`; one that
   * has finished never sends again.
   */
  readonly idleGraceMs: number;
}

export interface ConnectionSettings extends DrainSettings {
  /**
   * How long a request's body may take to arrive once its headers have: past it the body is
   * refused with 408 code 9 and the connection closed, so that a client that stops sending (or
   * trickles) holds no socket, request or answer.
   */
  readonly bodyTimeoutMs: number;
}

/** What a drain still waits for. */
export interface DrainProgress {
  /** Requests received and not yet answered. */
  readonly requests: number;
  /** Connections still open, busy or not. */
  readonly connections: number;
}

export interface ConnectionDrain {
  /**
   * Stops accepting connections, answers every request already received (and any that arrives on
   * a connection already open) with `Connection: close`, closes connections once they are quiet,
   * and resolves when the last one has closed.
   */
  drain(): Promise<void>;
  /** Told of each request before it is handled, as the server's request listener (and `checkExpectation`'s) is. */
  track(request: IncomingMessage, response: ServerResponse): void;
  inProgress(): DrainProgress;
  /** The last answer still being made or written on a connection, if any (pipelined requests queue theirs). */
  lastPendingAnswer(socket: Socket): ServerResponse | undefined;
  /** The request on a connection whose body is still arriving, if any: only the last one received can be. */
  unfinishedBody(socket: Socket): UnfinishedBody | undefined;
}

export interface UnfinishedBody {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

interface AwaitedBody extends UnfinishedBody {
  readonly deadline: NodeJS.Timeout;
}

interface Connection {
  /** Answers to requests received on it and not yet sent (more than one when the client pipelines). */
  readonly pending: Set<ServerResponse>;
  graceTimer?: NodeJS.Timeout;
  /** The body being received, with the time it has left. */
  body?: AwaitedBody;
}

/** Node then closes the connection after the answer; a header already sent cannot say it any more. */
function sayClose(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
}

/**
 * Watches a server's connections from before it listens, so that it can be stopped without losing
 * a request, and so that no body keeps one waiting past its deadline.
 */
export function trackConnections(server: Server, { idleGraceMs, bodyTimeoutMs }: ConnectionSettings): ConnectionDrain {
  const connections = new Map<Socket, Connection>();
  let draining = false;

  // The body stays the connection's until it ends or the connection closes: what else its client
  // sends (a FIN, bytes the parser refuses) is still about that request.
  const bodyLate = (connection: Connection): void => {
    const body = connection.body;
    if (body === undefined || body.request.complete) return;
    refuseBody(body.request, body.response, {
      _tag: 'RequestTimeout',
      details: `The body did not arrive within ${bodyTimeoutMs} ms of the headers`,
    });
  };
  const awaitBody = (connection: Connection, request: IncomingMessage, response: ServerResponse): void => {
    clearTimeout(connection.body?.deadline);
    const body: AwaitedBody = { request, response, deadline: setTimeout(bodyLate, bodyTimeoutMs, connection) };
    connection.body = body;
    request.once('end', () => {
      if (connection.body !== body) return;
      clearTimeout(body.deadline);
      connection.body = undefined;
    });
  };

  /**
   * Closes the connection once it has been quiet for the grace and one more poll phase (which reads
   * whatever the kernel holds for it): no request in progress and not one byte read meanwhile,
   * since bytes without a request are the start of one.
   */
  const closeWhenQuiet = (socket: Socket, connection: Connection): void => {
    clearTimeout(connection.graceTimer);
    const bytesReadBefore = socket.bytesRead;
    connection.graceTimer = setTimeout(
      () =>
        setImmediate(() => {
          connection.graceTimer = undefined;
          if (socket.destroyed || connection.pending.size > 0) return;
          if (socket.bytesRead !== bytesReadBefore) closeWhenQuiet(socket, connection);
          else socket.destroy();
        }),
      idleGraceMs,
    );
  };

  server.on('connection', (socket: Socket) => {
    const connection: Connection = { pending: new Set() };
    connections.set(socket, connection);
    socket.once('close', () => {
      clearTimeout(connection.graceTimer);
      clearTimeout(connection.body?.deadline);
      connections.delete(socket);
    });
    if (draining) closeWhenQuiet(socket, connection);
  });

  /** Where an answer's connection is kept, so that its end finds it without a lookup or a closure of its own. */
  const CONNECTION = Symbol('connection');
  type Tracked = ServerResponse & { [CONNECTION]?: { readonly socket: Socket; readonly connection: Connection } };
  function answered(this: Tracked): void {
    const { socket, connection } = this[CONNECTION]!;
    connection.pending.delete(this);
    if (draining && connection.pending.size === 0 && !socket.destroyed) closeWhenQuiet(socket, connection);
  }

  const track = (request: IncomingMessage, response: ServerResponse): void => {
    const socket = request.socket;
    const connection = connections.get(socket);
    if (!connection) return;
    connection.pending.add(response);
    if (declaresBody(request.headers)) awaitBody(connection, request, response);
    if (draining) {
      clearTimeout(connection.graceTimer);
      // The app's handler is called next, and answers after a promise: no header is sent yet.
      sayClose(response);
    }
    (response as Tracked)[CONNECTION] = { socket, connection };
    response.on('close', answered);
  };

  return {
    track,
    drain() {
      draining = true;
      const closed = new Promise<void>((resolve) => {
        // net.Server's close stops listening and calls back once the last connection has closed;
        // http.Server's own close() would first destroy idle keep-alive connections (see DrainSettings).
        NetServer.prototype.close.call(server, () => resolve());
      });
      for (const [socket, connection] of connections) {
        if (connection.pending.size === 0) closeWhenQuiet(socket, connection);
        else connection.pending.forEach(sayClose);
      }
      return closed;
    },
    lastPendingAnswer(socket) {
      const pending = connections.get(socket)?.pending;
      let last: ServerResponse | undefined;
      for (const answer of pending ?? []) last = answer;
      return last;
    },
    unfinishedBody(socket) {
      const body = connections.get(socket)?.body;
      return body === undefined || body.request.complete ? undefined : body;
    },
    inProgress() {
      let requests = 0;
      for (const connection of connections.values()) requests += connection.pending.size;
      return { requests, connections: connections.size };
    },
  };
}
