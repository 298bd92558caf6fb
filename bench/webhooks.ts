/**
 * Webhooks: what announcing an event costs the change that causes it, and how fast the worker
 * delivers. First, token creation (POST /api/token/create, which writes a `token.created` event
 * beside its audit entry) against the authenticated crypto endpoint in the same run, on this
 * build and, when BENCH_BASELINE_ROOT names a built checkout from before webhooks, on that one
 * too. Then 10,000 events (`BENCH_WEBHOOK_EVENTS`) queued with the worker off, handed on and
 * delivered after a restart to a receiver on loopback, with the server's memory while they wait
 * and as they go. See bench/README.md.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pinSelf } from './cpu-pinning.js';
import { cpuSecondsOf, describeRun, measureRounds, roundRatio, type Target } from './measurement.js';
import { postMany, reached, startAgain, startProduct } from './product.js';
import { fixed, printResults, verdict } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { isBase64url, memoryOf, ServerFailure } from './server-processes.js';

const TARGET_DELIVERY_PER_SECOND = 200;
const EVENTS = /^[1-9]\d{0,5}$/.test(process.env.BENCH_WEBHOOK_EVENTS ?? '')
  ? Number(process.env.BENCH_WEBHOOK_EVENTS)
  : 10_000;
const DELIVERY_TIMEOUT_MS = 300_000;
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT || undefined;

const CRYPTO_PATH = '/api/crypto/enc?data=0123456789abcdefghijABCDEFGHIJ01';
const TOKEN_BODY = JSON.stringify({ name: 'bench' });
/** Every token the runs create is live: no limit of live tokens may refuse one. */
const MANY_TOKENS = { UTILITY_API_MAX_TOKENS_PER_USER: '1000000' };
/** A receiver on loopback: plain HTTP allowed, and 127.0.0.0/8 let through the outbound guard. */
const LOOPBACK_RECEIVER = {
  UTILITY_API_WEBHOOKS_ALLOW_HTTP: 'true',
  UTILITY_API_OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
};

/** A receiver that answers 204 at once and notes when each delivery arrived and its webhook-id. */
async function startReceiver(): Promise<{ url: string; arrivals: number[]; ids: Set<string>; close(): Promise<void> }> {
  const arrivals: number[] = [];
  const ids = new Set<string>();
  const server = createServer((request: IncomingMessage, response) => {
    request.resume();
    request.on('end', () => {
      ids.add(String(request.headers['webhook-id']));
      arrivals.push(performance.now());
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/in`,
    arrivals,
    ids,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

await runBenchmark(async (settings) => {
  const pinning = await pinSelf();
  const permissions = ['Cryptography::*', 'Tokens::Create', 'Webhooks::Manage'];

  // The cost on the change: the webhook worker off, so that only the writing of the event is measured.
  const quiet = { ...MANY_TOKENS, UTILITY_API_WEBHOOKS_WORKER: 'false' };
  const current = await startProduct(pinning, permissions, CRYPTO_PATH, isBase64url, quiet);
  const baseline =
    BASELINE_ROOT === undefined
      ? undefined
      : await startProduct(
          pinning,
          ['Cryptography::*', 'Tokens::Create'],
          CRYPTO_PATH,
          isBase64url,
          MANY_TOKENS,
          BASELINE_ROOT,
        );
  const targets: Target[] = [
    {
      id: 'c',
      label: 'crypto enc (reference)',
      ...reached(current, CRYPTO_PATH),
    },
    {
      id: 't',
      label: 'token create, with its event',
      ...reached(current, '/api/token/create'),
      jsonBody: TOKEN_BODY,
    },
    ...(baseline === undefined
      ? []
      : [
          {
            id: 'b',
            label: 'token create, before webhooks',
            ...reached(baseline, '/api/token/create'),
            jsonBody: TOKEN_BODY,
          },
        ]),
  ];
  describeRun(
    pinning,
    settings,
    targets.map((target) => target.id),
  );
  const measurement = await measureRounds(targets, settings);
  printResults(measurement);
  const [crypto, withEvent, before] = measurement.results;
  await Promise.all([current.server.stop(), baseline?.server.stop()]);

  // Delivery: events queued with the worker off, then handed on and delivered by a worker to a receiver on loopback.
  const receiver = await startReceiver();
  try {
    const filling = await startProduct(
      pinning,
      ['Tokens::Create', 'Webhooks::Manage'],
      '/api/openapi.json',
      () => undefined,
      {
        ...MANY_TOKENS,
        ...LOOPBACK_RECEIVER,
        UTILITY_API_WEBHOOKS_WORKER: 'false',
      },
    );
    const created = await fetch(`${filling.baseUrl}/api/webhook/create`, {
      method: 'POST',
      headers: { ...filling.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['token.created'] }),
    });
    if (created.status !== 201)
      throw new ServerFailure(`webhook/create answered ${created.status}: ${await created.text()}`);
    await postMany(filling, '/api/token/create', TOKEN_BODY, EVENTS);
    await filling.server.stop();
    const draining = await startAgain(pinning, filling, '/api/openapi.json', () => undefined, {
      ...MANY_TOKENS,
      ...LOOPBACK_RECEIVER,
      UTILITY_API_WEBHOOKS_WORKER: 'true',
    });
    const waiting = memoryOf(draining.server.pid);
    const cpuBefore = cpuSecondsOf(draining.server.pid);
    const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
    while (receiver.ids.size < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const drained = memoryOf(draining.server.pid);
    const cpuSpent = (cpuSecondsOf(draining.server.pid) ?? Number.NaN) - (cpuBefore ?? Number.NaN);
    await draining.server.stop();
    if (receiver.ids.size < EVENTS)
      throw new ServerFailure(
        `${receiver.ids.size} of ${EVENTS} events delivered within ${DELIVERY_TIMEOUT_MS / 1000} s`,
      );
    const seconds = (receiver.arrivals.at(-1)! - receiver.arrivals[0]!) / 1000;
    const rate = (receiver.arrivals.length - 1) / seconds;
    console.log(
      `\nDelivery: ${receiver.ids.size} events (${receiver.arrivals.length} arrivals) to a loopback receiver in ${fixed(seconds, 2)} s ` +
        `from the first to the last: ${fixed(rate, 0)} deliveries/s, ${fixed((cpuSpent * 1e6) / EVENTS, 0)} µs of server CPU each; ` +
        `RSS ${fixed(waiting.rss, 1)} MB with ${EVENTS} events waiting → ${fixed(drained.rss, 1)} MB delivered (peak ${fixed(drained.peak, 1)})`,
    );

    console.log('\nFigures (ratio = median of per-round req/s ratios):');
    console.log(
      `  info    t token create with its event / crypto: ${fixed(roundRatio(withEvent!.tally, crypto!.tally), 3)}`,
    );
    if (before !== undefined) {
      console.log(
        `  info    b token create before webhooks / crypto: ${fixed(roundRatio(before.tally, crypto!.tally), 3)}`,
      );
      console.log(
        `  info    t / b, the event's cost on token creation: ${fixed(roundRatio(withEvent!.tally, before.tally), 3)}`,
      );
    }
    console.log(
      `  ${verdict(rate >= TARGET_DELIVERY_PER_SECOND)}  delivery to a loopback receiver >= ${TARGET_DELIVERY_PER_SECOND}/s: ${fixed(rate, 0)}`,
    );
    console.log(
      `  ${verdict(receiver.arrivals.length === receiver.ids.size)}  every event arrived once: ${receiver.arrivals.length} arrivals, ${receiver.ids.size} webhook-ids`,
    );
    const failed = measurement.results.reduce((sum, { tally }) => sum + tally.non2xx + tally.errors, 0);
    console.log(`  ${verdict(failed === 0)}  no non-2xx responses or connection errors: ${failed}`);
  } finally {
    await receiver.close();
  }
});
