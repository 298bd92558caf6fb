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

/**
 * JSON lines on stdout (or another fd), written 64 lines at a time, or once a second when traffic
 * is light. The writes are synchronous: cheaper than a trip through the thread pool, and a reader
 * that falls behind slows the server instead of filling its memory. `close` writes what is left.
 */
export function createLogger(level: string, fd = 1): { logger: Logger; flush(): void; close(): void } {
  const destination = new BatchedDestination(pino.destination({ dest: fd, sync: true }));
  const flusher = setInterval(() => destination.flush(), FLUSH_INTERVAL_MS);
  flusher.unref();
  const logger = pino({ level }, destination);
  return {
    logger,
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
