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
 * Secrets never reach the log, by configuration rather than by care at each call: fields of these
 * names are replaced at the top of a line and two levels down (`err.config.headers`), so are the
 * settings that hold credentials, and text (messages, error messages and stacks) is scrubbed of
 * bearer and basic credentials, token secrets and the password part of URLs (`smtp://user:pw@host`).
 */
const SECRET_FIELDS = [
  'authorization',
  'Authorization',
  'cookie',
  'password',
  'passwordHash',
  'token',
  'secret',
  'apiKey',
  'smtpUrl',
  'databaseUrl',
  'redisUrl',
];
const SECRET_SETTINGS = [
  'database.url',
  'redis.url',
  'mail.smtpUrl',
  'smtp.url',
  'encryption.key',
  'encryption.previousKeys',
];
export const REDACTED = '[Redacted]';
const REDACTED_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  ...SECRET_SETTINGS.flatMap((path) => [path, `*.${path}`]),
];
const SECRET_TEXT: readonly (readonly [RegExp, string])[] = [
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]*@/gi, `$1${REDACTED}@`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\buapi_[A-Za-z0-9_-]{43,49}/g, `uapi_${REDACTED}`],
];

export const scrubbed = (text: string): string =>
  SECRET_TEXT.reduce((scrubbing, [pattern, replacement]) => scrubbing.replace(pattern, replacement), text);

const errorWithoutSecrets = (error: Error): pino.SerializedError => {
  const serialized = pino.stdSerializers.err(error);
  return { ...serialized, message: scrubbed(serialized.message), stack: scrubbed(serialized.stack) };
};

const redacting: pino.LoggerOptions = {
  redact: { paths: REDACTED_PATHS, censor: REDACTED },
  serializers: { err: errorWithoutSecrets },
  hooks: {
    logMethod(args, method) {
      method.apply(
        this,
        args.map((arg) => (typeof arg === 'string' ? scrubbed(arg) : arg)) as Parameters<typeof method>,
      );
    },
  },
};

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
 * JSON lines on stdout (or another fd), secrets redacted, written 64 lines at a time, or once a second when traffic
 * is light. The writes are synchronous: cheaper than a trip through the thread pool, and a reader
 * that falls behind slows the server instead of filling its memory. `close` writes what is left.
 */
export function createLogger(
  level: string,
  fd = 1,
): { logger: Logger; accessLog: AccessLog; flush(): void; close(): void } {
  const destination = new BatchedDestination(pino.destination({ dest: fd, sync: true }));
  const flusher = setInterval(() => destination.flush(), FLUSH_INTERVAL_MS);
  flusher.unref();
  const logger = pino({ level, ...redacting }, destination);
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
