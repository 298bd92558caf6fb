/**
 * Throughput and tail latency of GET /api/crypto/enc against two baselines on the same machine
 * in the same run: (a) bare Koa doing the same AES-256-GCM work, (b) a bare hello-world route,
 * (c) the product counting every request in memory, (d) the product counting them in Redis; both
 * with metrics on. Targets are measured in alternating short segments so that whatever else the
 * machine is doing hurts all of them alike; only the ratios between them are meant to be compared
 * across runs. See bench/README.md.
 */
import { createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import { nodeCommand, pinSelf, type Pinning } from './cpu-pinning.js';
import { CONNECTIONS, describeRun, measureRounds, roundRatio, type Target } from './measurement.js';
import { reached, startProduct, type Product } from './product.js';
import { startRedis } from './redis.js';
import { fixed, printResults, verdict } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { freePort, HOST, isBase64url, ServerProcess, servers, waitUntilReady } from './server-processes.js';

/** Issue 16: with the rate limiter on (every request counted) and metrics on. */
const TARGET_RATIO_MEMORY = 0.85;
const TARGET_RATIO_REDIS = 0.75;
const TARGET_P99_MS = 15;
const PERMISSIONS = ['Cryptography::*', 'System::Metrics'];

/** Requests the product has answered at the endpoint, warm-up included, by its own metrics. */
async function answeredBy(product: Product, path: string): Promise<number> {
  const exposition = await (await fetch(`${product.baseUrl}/metrics`, { headers: product.headers })).text();
  const line = exposition
    .split('\n')
    .find(
      (each) =>
        each.startsWith('http_request_duration_seconds_count{') &&
        each.includes(`route="${path}"`) &&
        each.includes('status="200"'),
    );
  return Number(line?.split(' ').at(-1) ?? Number.NaN);
}

function alphanumeric(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/** Decrypts nonce | ciphertext | tag, so the baseline is known to do the real work. */
function decryptBare(key: Buffer, body: string): string {
  const bytes = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12), { authTagLength: 16 });
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
}

async function startBare(pinning: Pinning, data: string): Promise<Target[]> {
  const key = randomBytes(32);
  const port = await freePort();
  const server = new ServerProcess('bare server', nodeCommand(pinning, ['bench/bare-server.js']), {
    ...process.env,
    PORT: String(port),
    BENCH_AES_KEY: key.toString('base64'),
  });
  servers.add(server);
  const base = `http://${HOST}:${port}`;
  const enc = `${base}/enc?data=${data}`;
  await waitUntilReady(server, `${base}/hello`, {}, (body) =>
    body === 'hello' ? undefined : `expected "hello", got ${body.slice(0, 100)}`,
  );
  await waitUntilReady(server, enc, {}, (body) => {
    try {
      return decryptBare(key, body) === data ? undefined : 'decrypts to something else';
    } catch {
      return 'does not decrypt with its key';
    }
  });
  return [
    { id: 'a', label: 'bare koa /enc', url: enc, headers: {}, server },
    { id: 'b', label: 'bare koa /hello', url: `${base}/hello`, headers: {}, server },
  ];
}

await runBenchmark(async (settings) => {
  const pinning = await pinSelf();
  describeRun(pinning, settings, ['a', 'b', 'c', 'd']);

  // One fixed value keeps (a) and (c) encrypting exactly the same input.
  const data = alphanumeric(32);
  const [bareEnc, bareHello] = await startBare(pinning, data);
  const encPath = `/api/crypto/enc?data=${data}`;
  const memory = await startProduct(pinning, PERMISSIONS, encPath, isBase64url);
  const redis = await startRedis(pinning);
  const shared = await startProduct(pinning, PERMISSIONS, encPath, isBase64url, { REDIS_URL: redis.url });
  const targets: Target[] = [
    bareEnc!,
    bareHello!,
    {
      id: 'c',
      label: 'product /api/crypto/enc, limits in memory',
      ...reached(memory, encPath),
    },
    {
      id: 'd',
      label: 'product /api/crypto/enc, limits in Redis',
      ...reached(shared, encPath),
    },
  ];
  console.log('Servers are up.\n');

  const redisBefore = await redis.counts();
  const answeredBefore = await answeredBy(shared, '/api/crypto/enc');
  const measurement = await measureRounds(targets, settings);
  const answered = (await answeredBy(shared, '/api/crypto/enc')) - answeredBefore;
  const redisAfter = await redis.counts();
  const scriptsPerRequest = (redisAfter.scripts - redisBefore.scripts) / answered;
  // Less the one INFO asked before, which Redis counts as a command.
  const commandsPerRequest = (redisAfter.commands - redisBefore.commands - 1) / answered;
  printResults(measurement);
  const [a, b, c, d] = measurement.results;
  const memoryRatio = roundRatio(c!.tally, a!.tally);
  const redisRatio = roundRatio(d!.tally, a!.tally);
  const failed = measurement.results.reduce((sum, { tally }) => sum + tally.non2xx + tally.errors, 0);
  console.log('');
  console.log(
    `c/a (product, limits in memory, vs bare koa doing the same crypto): ${fixed(memoryRatio, 3)}  (median of per-round ratios; pooled ${fixed(c!.rps / a!.rps, 3)})`,
  );
  console.log(
    `d/a (product, limits in Redis, vs bare koa doing the same crypto):  ${fixed(redisRatio, 3)}  (pooled ${fixed(d!.rps / a!.rps, 3)})`,
  );
  console.log(
    `c/b (product vs bare hello world):                                  ${fixed(roundRatio(c!.tally, b!.tally), 3)}`,
  );
  console.log(
    `a/c, a/d of server CPU per request (1.0 = the product costs no more CPU than bare): ${fixed(a!.cpuMicrosPerRequest / c!.cpuMicrosPerRequest, 3)}, ${fixed(a!.cpuMicrosPerRequest / d!.cpuMicrosPerRequest, 3)} (d's Redis not included)`,
  );
  console.log(
    `Redis round trips per request of d: ${fixed(scriptsPerRequest, 3)} (EVALSHA of the limiter's script, which runs ` +
      `${fixed(commandsPerRequest - scriptsPerRequest, 1)} commands inside Redis; ${answered} requests answered during the rounds and their warm-ups)`,
  );
  console.log('');
  console.log('Targets:');
  console.log(
    `  ${verdict(memoryRatio >= TARGET_RATIO_MEMORY)}  c/a >= ${TARGET_RATIO_MEMORY}: ${fixed(memoryRatio, 3)}`,
  );
  console.log(`  ${verdict(redisRatio >= TARGET_RATIO_REDIS)}  d/a >= ${TARGET_RATIO_REDIS}: ${fixed(redisRatio, 3)}`);
  for (const target of [c!, d!]) {
    console.log(
      `  ${verdict(target.p99Median <= TARGET_P99_MS)}  p99 of ${target.target.id} <= ${TARGET_P99_MS} ms at ${CONNECTIONS} connections: ` +
        `median of segments ${fixed(target.p99Median, 1)} ms (worst segment ${fixed(target.p99Worst, 1)} ms${target.p99Worst <= TARGET_P99_MS ? '' : ', over'})`,
    );
  }
  console.log(`  ${verdict(failed === 0)}  no non-2xx responses or connection errors: ${failed}`);
});
