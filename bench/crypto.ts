/**
 * Throughput and tail latency of GET /api/crypto/enc against two baselines on the same machine
 * in the same run: (a) bare Koa doing the same AES-256-GCM work, (b) a bare hello-world route,
 * (c) the product. Targets are measured in alternating short segments so that whatever else the
 * machine is doing hurts all three alike; only the ratios between them are meant to be compared
 * across runs. See bench/README.md.
 */
import { createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import { nodeCommand, pinSelf, type Pinning } from './cpu-pinning.js';
import { CONNECTIONS, describeRun, measureRounds, roundRatio, type Target } from './measurement.js';
import { startProduct } from './product.js';
import { fixed, printResults, verdict } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { freePort, HOST, isBase64url, ServerProcess, servers, waitUntilReady } from './server-processes.js';

const TARGET_RATIO_TO_BARE = 0.9;
const TARGET_P99_MS = 15;

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
  await waitUntilReady(server, `${base}/hello`, {}, (body) => (body === 'hello' ? undefined : `expected "hello", got ${body.slice(0, 100)}`));
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
  describeRun(pinning, settings, ['a', 'b', 'c']);

  // One fixed value keeps (a) and (c) encrypting exactly the same input.
  const data = alphanumeric(32);
  const [bareEnc, bareHello] = await startBare(pinning, data);
  const encPath = `/api/crypto/enc?data=${data}`;
  const product = await startProduct(pinning, ['Cryptography::*'], encPath, isBase64url);
  const targets: Target[] = [bareEnc!, bareHello!, { id: 'c', label: 'product /api/crypto/enc', url: product.baseUrl + encPath, headers: product.headers, server: product.server }];
  console.log('Servers are up.\n');

  const measurement = await measureRounds(targets, settings);
  printResults(measurement);
  const [a, b, c] = measurement.results;
  const ratioToBare = roundRatio(c!.tally, a!.tally);
  const failed = measurement.results.reduce((sum, { tally }) => sum + tally.non2xx + tally.errors, 0);
  console.log('');
  console.log(`c/a (product vs bare koa doing the same crypto): ${fixed(ratioToBare, 3)}  (median of per-round ratios; pooled ${fixed(c!.rps / a!.rps, 3)})`);
  console.log(`c/b (product vs bare hello world):               ${fixed(roundRatio(c!.tally, b!.tally), 3)}`);
  console.log(`a/c of server CPU per request (1.0 = the product costs no more CPU than bare): ${fixed(a!.cpuMicrosPerRequest / c!.cpuMicrosPerRequest, 3)}`);
  console.log('');
  console.log('Targets:');
  console.log(`  ${verdict(ratioToBare >= TARGET_RATIO_TO_BARE)}  c/a >= ${TARGET_RATIO_TO_BARE}: ${fixed(ratioToBare, 3)}`);
  console.log(
    `  ${verdict(c!.p99Median <= TARGET_P99_MS)}  p99 of c <= ${TARGET_P99_MS} ms at ${CONNECTIONS} connections: ` +
      `median of segments ${fixed(c!.p99Median, 1)} ms (worst segment ${fixed(c!.p99Worst, 1)} ms${c!.p99Worst <= TARGET_P99_MS ? '' : ', over'})`,
  );
  console.log(`  ${verdict(failed === 0)}  no non-2xx responses or connection errors: ${failed}`);
});
