/**
 * Fairness of the barcode drawing pool (issue 17): crypto's p99 alone, then while 4 clients ask,
 * each one at a time, for fresh 1 KB Aztec codes as PNG (never the same content, so never the
 * cache). Target: crypto's p99 under that load at most 5× its p99 alone plus 10 ms, and no
 * barcode request lost. Also the product's RSS before any barcode and with the pool warm. Nothing
 * is pinned: the drawing worker is meant to have the core the event loop does not use. See
 * bench/README.md.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { BwipBarcodeRenderer } from '../src/families/barcode/adapters/bwip-barcode-renderer.js';
import { FittingBarcodeRenderer } from '../src/families/barcode/adapters/fitting-barcode-renderer.js';
import { LeanQrBarcodeRenderer } from '../src/families/barcode/adapters/lean-qr-barcode-renderer.js';
import { GenerateBarcode } from '../src/families/barcode/domain/generate-barcode.js';
import { defaultBarcodeWorkers } from '../src/families/barcode/barcode-module.js';
import { barcodeSettings } from '../src/families/barcode/barcode-settings.js';
import type { Pinning } from './cpu-pinning.js';
import { startProduct } from './product.js';
import { fixed, verdict } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { isBase64url, memoryOf } from './server-processes.js';

const BARCODE_CLIENTS = 4;
const CRYPTO_CONNECTIONS = 10;
const CONTENT_BYTES = 1000;
const TARGET_FACTOR = 5;
const TARGET_SLACK_MS = 10;
const PERMISSIONS = ['Cryptography::*', 'Barcode::Generate'];
/** The product's defaults, for drawing in this process as it draws. */
const { maxPixels, maxContentBytes } = barcodeSettings.defaults;
/** Issue 32: fresh content drawn by the product at no less than this share of what bwip-js draws in-process on as many cores. */
const SCALING_TARGET = 0.8;

const freshContent = (): string => randomBytes(CONTENT_BYTES).toString('base64').slice(0, CONTENT_BYTES);

/**
 * What one core draws in this process, through the product's own renderers without its pool,
 * queue and cache: the same fresh 1 KB Aztec PNGs, one after another, for `seconds`.
 */
async function drawnInProcess(seconds: number): Promise<number> {
  const generate = new GenerateBarcode(
    new FittingBarcodeRenderer(new LeanQrBarcodeRenderer({ maxPixels }, new BwipBarcodeRenderer({ maxPixels }))),
    maxContentBytes,
  );
  // The first drawing loads bwip-js, as the pool's warm-up does in the product.
  await generate.execute({ symbology: 'azteccode', content: freshContent() });
  let drawn = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until)
    if (E.isRight(await generate.execute({ symbology: 'azteccode', content: freshContent() }))) drawn++;
  return drawn / seconds;
}

interface CryptoRun {
  readonly p99: number;
  readonly rps: number;
  readonly failed: number;
}

async function crypto(url: string, headers: Record<string, string>, seconds: number): Promise<CryptoRun> {
  const result = await autocannon({ url, headers, connections: CRYPTO_CONNECTIONS, pipelining: 1, duration: seconds });
  return {
    p99: result.latency.p99,
    rps: result.requests.average,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

interface BarcodeTally {
  drawn: number;
  lost: number;
  statuses: Map<number, number>;
  millis: number[];
}

/** One client asking for fresh Aztec codes one after another until `until`. */
async function barcodeClient(
  baseUrl: string,
  headers: Record<string, string>,
  until: () => boolean,
  tally: BarcodeTally,
): Promise<void> {
  while (!until()) {
    const content = freshContent();
    const started = performance.now();
    try {
      const response = await fetch(
        `${baseUrl}/api/barcode/gen/azteccode?${new URLSearchParams({ content }).toString()}`,
        { headers },
      );
      await response.arrayBuffer();
      tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
      if (response.status === 200) tally.drawn++;
      else tally.lost++;
    } catch {
      tally.lost++;
    }
    tally.millis.push(performance.now() - started);
  }
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

await runBenchmark(async (settings) => {
  const pinning: Pinning = {
    mode: 'unpinned',
    reason: 'the drawing worker is to have the core the event loop does not use',
  };
  const seconds = settings.segmentSeconds * settings.rounds;
  console.log(
    `Not pinned (${pinning.reason}); ${seconds} s per measurement (BENCH_SEGMENT_SECONDS × BENCH_ROUNDS), ${settings.warmupSeconds} s warm-up.`,
  );
  const encPath = '/api/crypto/enc?data=fairness';
  const product = await startProduct(pinning, PERMISSIONS, encPath, isBase64url);
  const encUrl = product.baseUrl + encPath;
  console.log('The product is up.\n');

  await crypto(encUrl, product.headers, settings.warmupSeconds);
  const alone = await crypto(encUrl, product.headers, seconds);
  const rssBefore = memoryOf(product.server.pid).rss;

  // Warms the pool (its worker loads bwip-js) before the measurement.
  const warm: BarcodeTally = { drawn: 0, lost: 0, statuses: new Map(), millis: [] };
  const warmUntil = Date.now() + settings.warmupSeconds * 1000;
  await Promise.all(
    Array.from({ length: BARCODE_CLIENTS }, () =>
      barcodeClient(product.baseUrl, product.headers, () => Date.now() > warmUntil, warm),
    ),
  );

  const tally: BarcodeTally = { drawn: 0, lost: 0, statuses: new Map(), millis: [] };
  let done = false;
  const clients = Array.from({ length: BARCODE_CLIENTS }, () =>
    barcodeClient(product.baseUrl, product.headers, () => done, tally),
  );
  const loaded = await crypto(encUrl, product.headers, seconds);
  done = true;
  await Promise.all(clients);
  const rssWarm = memoryOf(product.server.pid);

  // Fresh content alone, then the same drawn in this process (the product idle): its drawing workers
  // (barcode.workers, by default the cores less one) against as many cores drawing in-process.
  const alonePool: BarcodeTally = { drawn: 0, lost: 0, statuses: new Map(), millis: [] };
  const aloneUntil = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: BARCODE_CLIENTS }, () =>
      barcodeClient(product.baseUrl, product.headers, () => Date.now() > aloneUntil, alonePool),
    ),
  );
  const productRate = alonePool.drawn / seconds;
  const workers = defaultBarcodeWorkers();
  const oneCore = await drawnInProcess(seconds);
  const scaling = productRate / (oneCore * workers);

  const limit = TARGET_FACTOR * alone.p99 + TARGET_SLACK_MS;
  const statuses = [...tally.statuses.entries()].map(([status, count]) => `${status}: ${count}`).join(', ');
  console.log(
    `crypto alone (${CRYPTO_CONNECTIONS} connections):                 p99 ${alone.p99} ms, ${fixed(alone.rps, 0)} req/s, ${alone.failed} failed`,
  );
  console.log(
    `crypto with ${BARCODE_CLIENTS} clients drawing 1 KB Aztec PNGs: p99 ${loaded.p99} ms, ${fixed(loaded.rps, 0)} req/s, ${loaded.failed} failed`,
  );
  console.log(
    `ratio of p99s: ${fixed(loaded.p99 / alone.p99, 2)}× (target ≤ ${TARGET_FACTOR}× alone + ${TARGET_SLACK_MS} ms = ${fixed(limit, 1)} ms)`,
  );
  console.log(
    `barcodes: ${tally.drawn} drawn (${fixed(tally.drawn / seconds, 1)}/s), ${tally.lost} lost (statuses ${statuses}); ` +
      `latency p50 ${fixed(percentile(tally.millis, 50), 0)} ms, p99 ${fixed(percentile(tally.millis, 99), 0)} ms`,
  );
  console.log(
    `product RSS: ${fixed(rssBefore, 1)} MB before any barcode, ${fixed(rssWarm.rss, 1)} MB with the pool warm (peak ${fixed(rssWarm.peak, 1)} MB)`,
  );
  console.log(
    `fresh content alone: the product ${fixed(productRate, 1)}/s with ${workers} drawing worker(s); bwip-js in this process ${fixed(oneCore, 1)}/s on one core, × ${workers} = ${fixed(oneCore * workers, 1)}/s`,
  );
  console.log('');
  console.log('Targets:');
  console.log(
    `  ${verdict(loaded.p99 <= limit)}  crypto p99 under barcode load ≤ ${TARGET_FACTOR}× alone + ${TARGET_SLACK_MS} ms: ${loaded.p99} ≤ ${fixed(limit, 1)}`,
  );
  console.log(
    `  ${verdict(scaling >= SCALING_TARGET)}  fresh content ≥ ${SCALING_TARGET}× bwip-js in-process on as many cores: ${fixed(scaling, 3)}`,
  );
  console.log(`  ${verdict(tally.lost === 0)}  no barcode request lost: ${tally.lost}`);
  console.log(
    `  ${verdict(alone.failed + loaded.failed === 0)}  no crypto request failed: ${alone.failed + loaded.failed}`,
  );
});
