import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DependencyCheck } from '../health/ports.js';

export interface RedisSettings {
  readonly url: string;
  /** How long one command may take before it counts as failed (and the in-memory insurance decides). */
  readonly commandTimeoutMs: number;
}

/** How long a start waits for the first connection before serving on without it. */
const FIRST_CONNECTION_WAIT_MS = 1_000;

/** What ioredis rejects a command with when it got no answer within `commandTimeout`. */
const TIMED_OUT = 'Command timed out';

/**
 * The one connection to the Redis that instances share their counters in. It never holds a
 * request up: a command finds the connection ready or fails at once (no offline queue), and one
 * that gets no answer fails after `commandTimeoutMs`; callers fall back on what they hold
 * themselves. It reconnects on its own, and the log says when it was lost and when it is back.
 * Commands issued in one tick go out in one write (auto-pipelining).
 *
 * A Redis that hangs with its connection open (a frozen process, a network that swallows
 * packets) costs one deadline, not one per request: the first command to miss it drops the
 * connection, so that callers find it not ready and count in memory at once. Reconnecting is the
 * background check: a new connection is ready only once Redis has answered its ready check (also
 * within `commandTimeoutMs`), and attempts go on, spaced out, until one is.
 */
export class RedisConnection implements DependencyCheck {
  readonly name = 'redis connection';
  readonly component = 'redis';
  readonly componentType = 'datastore';
  readonly whenDown = 'warn';
  readonly degraded = 'rate limits and login failures are counted per instance until it answers again';
  readonly client: Redis;
  private lost = false;
  private stopping = false;

  private readonly commandTimeoutMs: number;

  constructor(
    { url, commandTimeoutMs }: RedisSettings,
    private readonly logger: Logger,
  ) {
    this.commandTimeoutMs = commandTimeoutMs;
    // Loaded when an installation configures it, not at every start: it costs memory that most never use.
    const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    this.client = new RedisClient(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      commandTimeout: commandTimeoutMs,
      connectTimeout: FIRST_CONNECTION_WAIT_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    });
    const send = this.client.sendCommand.bind(this.client);
    const missed = (error: unknown) => this.missedDeadline(error);
    // Every command passes here, pipelined or not; ioredis tells of a missed deadline nowhere else.
    this.client.sendCommand = (command, stream) => {
      const sent = send(command, stream);
      command.promise.then(undefined, missed);
      return sent;
    };
    // Without a listener, ioredis prints every failed attempt itself.
    this.client.on('error', (error: Error) => this.wentAway(error));
    this.client.on('close', () => this.wentAway(new Error('connection closed')));
    this.client.on('ready', () => {
      if (!this.lost) return;
      this.lost = false;
      this.logger.info({ component: this.component }, 'redis answers again: counters are shared again');
    });
  }

  /** Connects, waiting at most a second: an instance starts and serves whether Redis is there or not. */
  async start(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FIRST_CONNECTION_WAIT_MS);
    });
    await Promise.race([this.client.connect().catch(() => {}), waited]);
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  async probe(): Promise<void> {
    await this.client.ping();
  }

  private missedDeadline(error: unknown): void {
    if (!(error instanceof Error) || error.message !== TIMED_OUT || this.client.status !== 'ready') return;
    this.wentAway(new Error(`no answer within ${this.commandTimeoutMs} ms`));
    this.client.disconnect(true);
  }

  private wentAway(error: Error): void {
    if (this.lost || this.stopping) return;
    this.lost = true;
    this.logger.warn(
      { component: this.component, reason: error.message },
      'redis does not answer: counting per instance until it does',
    );
  }
}
