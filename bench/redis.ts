/**
 * A redis-server of the bench's own, on the servers' core like the product that uses it: the
 * product's side of the measurement pays for its Redis too. Nothing else talks to it, so what it
 * counts is the product's doing (and the bench's own questions).
 */
import { Redis } from 'ioredis';
import { serverCommand, type Pinning } from './cpu-pinning.js';
import { freePort, HOST, ServerFailure, ServerProcess, servers } from './server-processes.js';

export interface RedisCounts {
  /** Scripts run (EVALSHA, EVAL): what the rate limiter sends, one command and one answer each. */
  readonly scripts: number;
  /** Every command Redis has processed, those the scripts call inside it included. */
  readonly commands: number;
}

export interface BenchRedis {
  readonly url: string;
  /** What Redis has processed since it started, this question included. */
  counts(): Promise<RedisCounts>;
}

const callsOf = (stats: string, command: string): number =>
  Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);

export async function startRedis(pinning: Pinning): Promise<BenchRedis> {
  const port = await freePort();
  const server = new ServerProcess(
    'redis-server',
    serverCommand(pinning, 'redis-server', [
      '--port',
      String(port),
      '--bind',
      HOST,
      '--save',
      '',
      '--appendonly',
      'no',
    ]),
    process.env,
  );
  servers.add(server);
  const url = `redis://${HOST}:${port}`;
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
  client.on('error', () => {});
  for (let attempt = 0; ; attempt++) {
    try {
      await client.connect();
      break;
    } catch (error) {
      if (server.exit !== undefined || attempt > 100)
        throw new ServerFailure(`redis-server did not start: ${server.exit ?? (error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    async counts() {
      const stats = await client.info('all');
      return {
        scripts: callsOf(stats, 'evalsha') + callsOf(stats, 'eval'),
        commands: Number(/total_commands_processed:(\d+)/.exec(stats)?.[1] ?? Number.NaN),
      };
    },
  };
}
