import { hostname } from 'node:os';
import pino, { type Logger } from 'pino';

/** How long a log line may wait when traffic is too light to fill a batch. */
const FLUSH_INTERVAL_MS = 1_000;
const LINES_PER_BATCH = 64;

/**
 * Collects pino's lines and hands them to the real destination in batches. sonic-boom's own
 * `minLength` buffering measures its whole pending buffer on every line, which cost more than
 * formatting the line; joining an array once per batch costs almost nothing.
 */
class BatchedDestination {
  private lines: string[] = [];

  constructor(private readonly sink: ReturnType<typeof pino.destination>) {}

  write(line: string): void {
    this.lines.push(line);
    if (this.lines.length >= LINES_PER_BATCH) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    const batch = this.lines.join('');
    this.lines = [];
    this.sink.write(batch);
  }

  flushSync(): void {
    this.flush();
    this.sink.flushSync();
  }
}

/** One served request, as the access log records it. The query string is never part of it. */
export interface AccessEntry {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly ms: number;
}

export type AccessLog = (entry: AccessEntry) => void;

const INFO = 30;

/**
 * The access line, written straight to the destination in the shape pino gives every other
 * line (level, time, pid, hostname, the fields, msg). It is the one line written per request,
 * and pino's general-purpose serialisation of it was the largest cost the server adds to a
 * request; these five fields of known types need none of it.
 */
function accessLogTo(logger: Logger, destination: BatchedDestination): AccessLog {
  const bindings = `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  return ({ requestId, method, path, status, ms }) => {
    if (logger.levelVal > INFO) return;
    destination.write(
      `{"level":${INFO},"time":${Date.now()},${bindings},"requestId":${JSON.stringify(requestId)},"method":${JSON.stringify(method)},` +
        `"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`,
    );
  };
}

/**
 * JSON lines on stdout (or another fd), written 64 lines at a time, or once a second when traffic
 * is light. The writes are synchronous: cheaper than a trip through the thread pool, and a reader
 * that falls behind slows the server instead of filling its memory. `close` writes what is left.
 */
export function createLogger(level: string, fd = 1): { logger: Logger; accessLog: AccessLog; flush(): void; close(): void } {
  const destination = new BatchedDestination(pino.destination({ dest: fd, sync: true }));
  const flusher = setInterval(() => destination.flush(), FLUSH_INTERVAL_MS);
  flusher.unref();
  const logger = pino({ level }, destination);
  return {
    logger,
    accessLog: accessLogTo(logger, destination),
    flush: () => destination.flush(),
    close() {
      clearInterval(flusher);
      try {
        destination.flushSync();
      } catch {
        // The stream is already closed: nothing more can be written.
      }
    },
  };
}
