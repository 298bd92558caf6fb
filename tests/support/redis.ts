import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** The Redis the tests share counters in, as `redis://host:port`; its suites run only when set. */
export const REDIS_URL = process.env.TEST_REDIS_URL;

if (!REDIS_URL) {
  console.warn(
    'TEST_REDIS_URL is not set: the Redis runs of the rate limit, login throttle and shared-limit suites are skipped.',
  );
}

/** A key prefix of the test run's own, so that runs never see each other's counters. */
export const testKeyPrefix = (): string => `utility-api-test:${randomBytes(6).toString('hex')}:`;

export interface TestRedis {
  readonly client: Redis;
  readonly keyPrefix: string;
  /** Deletes every key of the prefix, then disconnects. */
  close(): Promise<void>;
}

/** A connection to TEST_REDIS_URL with a prefix of its own; what it wrote is deleted at the end. */
export async function openTestRedis(): Promise<TestRedis> {
  if (!REDIS_URL) throw new Error('TEST_REDIS_URL is not set');
  const client = new Redis(REDIS_URL, { lazyConnect: true, enableAutoPipelining: true });
  await client.connect();
  const keyPrefix = testKeyPrefix();
  return {
    client,
    keyPrefix,
    async close() {
      await deleteKeys(REDIS_URL!, keyPrefix);
      await client.quit();
    },
  };
}

/** Removes every key under `keyPrefix`, over a connection of its own. */
export async function deleteKeys(url: string, keyPrefix: string): Promise<void> {
  const cleaner = new Redis(url, { lazyConnect: true });
  await cleaner.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await cleaner.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
      if (keys.length > 0) await cleaner.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    cleaner.disconnect();
  }
}

/** A port nobody listens on, for a Redis that is down. */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;

/** A redis-server of the test's own on a free loopback port, nothing saved, to stop and start again. */
export class ThrowawayRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<ThrowawayRedis> {
    const redis = new ThrowawayRedis(await closedPort());
    await redis.start();
    return redis;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    const probe = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => {});
    for (let attempt = 0; ; attempt++) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch (error) {
        if (attempt >= 100 || child.exitCode !== null)
          throw new Error(`redis-server did not start on port ${this.port}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }
}
