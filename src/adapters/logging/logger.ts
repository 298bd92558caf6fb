import pino, { type Logger } from 'pino';

/** How long a log line may wait in the buffer when traffic is too light to fill it. */
const FLUSH_INTERVAL_MS = 1_000;
const BUFFER_BYTES = 4_096;

/**
 * JSON lines on stdout (or another fd), written in batches: one write per 4 KiB of lines, or
 * per second when traffic is light, instead of one write per request line. The writes are
 * synchronous: a 4 KiB write costs less than handing it to the thread pool and being woken
 * when it is done, and a reader that falls behind slows the server instead of filling memory.
 * `close` writes out what is left.
 */
export function createLogger(level: string, fd = 1): { logger: Logger; flush(): void; close(): void } {
  const destination = pino.destination({ dest: fd, minLength: BUFFER_BYTES, sync: true });
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
        // The stream is already closed or busy: nothing more can be written.
      }
    },
  };
}
