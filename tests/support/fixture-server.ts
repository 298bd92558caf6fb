import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One recorded answer of an upstream. A 200 gets an ETag, and `If-None-Match` with it a 304. */
export interface Recorded {
  readonly status?: number;
  /** Sent as JSON unless it is a string, which is sent as it is. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What the upstream does with every request: answer from its recordings (`normal`), do so only
 * after `slowMs` (`slow`), send the status and headers at once but the body only after `slowMs`
 * (`slow-body`), drop the connection unanswered (`down`), answer `errorStatus` (`error`), 429
 * with `retryAfter` (`rate-limit`), or a 200 that is not JSON (`garbage`).
 */
export type FixtureBehaviour = 'normal' | 'slow' | 'slow-body' | 'down' | 'error' | 'rate-limit' | 'garbage';

export interface FixtureServer {
  /** Its base URL on loopback, without a trailing slash. */
  readonly url: string;
  behaviour: FixtureBehaviour;
  slowMs: number;
  /** The 5xx an `error` answers. */
  errorStatus: number;
  /** Seconds sent in Retry-After with a 429; none when undefined. */
  retryAfter: number | undefined;
  /** Every request that reached it, by path (query string included), in order. */
  readonly calls: string[];
  /** How many of them were answered 304. */
  notModified: number;
  /** Forgets the calls and 304s counted so far. */
  resetCounts(): void;
  close(): Promise<void>;
}

export interface FixtureOptions {
  /**
   * The recorded answers by path, or what answers a path, for an upstream whose answer is made
   * from the question (Open-Meteo's, from its query string); a path with none is answered 404.
   */
  readonly recordings: Readonly<Record<string, Recorded>> | ((path: string) => Recorded | undefined);
  /** Maps a requested path to the key of its recording, for upstreams that ignore letter case, say. */
  readonly recordingKey?: (path: string) => string;
  /** The loopback address it listens on (any of 127.0.0.0/8), for tests that tell hosts apart. */
  readonly host?: string;
}

const NOT_FOUND: Recorded = { status: 404, body: { message: 'Not Found' } };

/** A loopback stand-in for an upstream HTTP API: replays recordings, counts calls, misbehaves on demand. */
export async function startFixtureServer({
  recordings,
  recordingKey = (path) => path,
  host = '127.0.0.1',
}: FixtureOptions): Promise<FixtureServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const calls: string[] = [];
  const state = {
    behaviour: 'normal' as FixtureBehaviour,
    slowMs: 1_000,
    errorStatus: 500,
    retryAfter: undefined as number | undefined,
    notModified: 0,
  };

  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    calls.push(path);
    const send = (status: number, body: string, headers: Readonly<Record<string, string>> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    const later = (answer: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, state.slowMs);
      timers.add(timer);
    };
    const replay = () => {
      const key = recordingKey(path);
      const recorded = (typeof recordings === 'function' ? recordings(key) : recordings[key]) ?? NOT_FOUND;
      const status = recorded.status ?? 200;
      const body = typeof recorded.body === 'string' ? recorded.body : JSON.stringify(recorded.body);
      if (status !== 200) return send(status, body, recorded.headers);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
      if (req.headers['if-none-match'] === etag) {
        state.notModified += 1;
        res.writeHead(304, { etag });
        return res.end();
      }
      send(200, body, { etag, ...recorded.headers });
    };
    switch (state.behaviour) {
      case 'down':
        return req.socket.destroy();
      case 'error':
        return send(state.errorStatus, '{"message":"Internal Server Error"}');
      case 'garbage':
        return send(200, '{"this is": not json');
      case 'rate-limit':
        return send(
          429,
          '{"message":"Too Many Requests"}',
          state.retryAfter === undefined ? {} : { 'retry-after': String(state.retryAfter) },
        );
      case 'slow':
        return later(replay);
      case 'slow-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        return later(() => res.end('[]'));
      case 'normal':
        return replay();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;

  const fixture = Object.assign(state, {
    url: `http://${host}:${port}`,
    calls,
    resetCounts: () => {
      calls.length = 0;
      state.notModified = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
  return fixture;
}
