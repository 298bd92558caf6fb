/**
 * Mail: how many messages the product accepts per second (POST /api/mail/send, 202 once stored)
 * against the authenticated crypto endpoint in the same run, with SQLite flushing the disk at
 * every commit (`synchronous = full`, the default) and at checkpoints only (`normal`); then how
 * many it delivers per second to an SMTP server on loopback, and what the outbox does to its
 * memory. See bench/README.md.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { pinSelf } from './cpu-pinning.js';
import { cpuSecondsOf, describeRun, measureRounds, roundRatio, type Target } from './measurement.js';
import { postMany, reached, startAgain, startProduct } from './product.js';
import { fixed, printResults, verdict } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { isBase64url, memoryOf, ServerFailure } from './server-processes.js';

const TARGET_ACCEPT_RATIO = 0.3;
const TARGET_DELIVERY_PER_SECOND = 200;
/** Messages queued, then delivered, for the delivery rate (`BENCH_MAIL_MESSAGES`). */
const MESSAGES = /^[1-9]\d{0,5}$/.test(process.env.BENCH_MAIL_MESSAGES ?? '')
  ? Number(process.env.BENCH_MAIL_MESSAGES)
  : 3_000;
const DELIVERY_TIMEOUT_MS = 120_000;

/** One user sends every message here: no quota, so that acceptance is measured, not refused (and the quota's count is left out). */
const NO_QUOTA = { UTILITY_API_MAIL_MAX_RECIPIENTS_PER_HOUR: 'off', UTILITY_API_MAIL_MAX_RECIPIENTS_PER_DAY: 'off' };
const CRYPTO_PATH = '/api/crypto/enc?data=0123456789abcdefghijABCDEFGHIJ01';
const MESSAGE = JSON.stringify({
  to: ['ada@example.com', 'grace@example.org'],
  subject: 'Your order {{order}}',
  content:
    '# Thank you, {{name}}\n\nYour order **{{order}}** ships tomorrow. Track it [here](https://example.com/track).\n\n- one book\n- one lamp\n',
  name: 'Ada',
  order: 42,
});

/** An SMTP server that takes every message and notes when each arrived and its Message-ID. */
async function startSink(): Promise<{
  url: string;
  arrivals: number[];
  messageIds: Set<string>;
  close(): Promise<void>;
}> {
  const arrivals: number[] = [];
  const messageIds = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 100,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const id = /^Message-ID:\s*(\S+)/im.exec(Buffer.concat(chunks).toString('latin1'))?.[1];
        if (id !== undefined) messageIds.add(id);
        arrivals.push(performance.now());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    messageIds,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

await runBenchmark(async (settings) => {
  const pinning = await pinSelf();
  const permissions = ['Cryptography::*', 'Mail::Send'];

  // Acceptance: each product delivers what it accepts as `npm start` does, to .eml files.
  const full = await startProduct(pinning, permissions, CRYPTO_PATH, isBase64url, {
    ...NO_QUOTA,
    UTILITY_API_SQLITE_SYNCHRONOUS: 'full',
  });
  const normal = await startProduct(pinning, permissions, CRYPTO_PATH, isBase64url, {
    ...NO_QUOTA,
    UTILITY_API_SQLITE_SYNCHRONOUS: 'normal',
  });
  const before = { full: memoryOf(full.server.pid), normal: memoryOf(normal.server.pid) };
  const targets: Target[] = [
    {
      id: 'c',
      label: 'crypto enc (reference)',
      ...reached(full, CRYPTO_PATH),
    },
    {
      id: 'mf',
      label: 'mail send, synchronous=full',
      ...reached(full, '/api/mail/send'),
      jsonBody: MESSAGE,
    },
    {
      id: 'mn',
      label: 'mail send, synchronous=normal',
      ...reached(normal, '/api/mail/send'),
      jsonBody: MESSAGE,
    },
  ];
  describeRun(
    pinning,
    settings,
    targets.map((target) => target.id),
  );
  const measurement = await measureRounds(targets, settings);
  printResults(measurement);
  const after = { full: memoryOf(full.server.pid), normal: memoryOf(normal.server.pid) };
  const [crypto, sendFull, sendNormal] = measurement.results;
  const ratioFull = roundRatio(sendFull!.tally, crypto!.tally);
  const ratioNormal = roundRatio(sendNormal!.tally, crypto!.tally);
  console.log(
    `\nRSS (MB) before → after accepting (and delivering to .eml files) ${sendFull!.tally.ok} and ${sendNormal!.tally.ok} messages: ` +
      `full ${fixed(before.full.rss, 1)} → ${fixed(after.full.rss, 1)} (peak ${fixed(after.full.peak, 1)}), ` +
      `normal ${fixed(before.normal.rss, 1)} → ${fixed(after.normal.rss, 1)} (peak ${fixed(after.normal.peak, 1)})`,
  );
  await Promise.all([full.server.stop(), normal.server.stop()]);

  // Delivery: a backlog queued with the worker off, then drained by a worker to a loopback SMTP server.
  const sink = await startSink();
  try {
    // The default durability (synchronous = full), as npm start has it.
    const delivery = { ...NO_QUOTA, UTILITY_API_SMTP_URL: sink.url };
    const filling = await startProduct(pinning, ['Mail::Send'], '/api/openapi.json', () => undefined, {
      ...delivery,
      UTILITY_API_MAIL_WORKER: 'false',
    });
    await postMany(filling, '/api/mail/send', MESSAGE, MESSAGES);
    await filling.server.stop();
    const draining = await startAgain(pinning, filling, '/api/openapi.json', () => undefined, {
      ...delivery,
      UTILITY_API_MAIL_WORKER: 'true',
    });
    const idle = memoryOf(draining.server.pid);
    const cpuBefore = cpuSecondsOf(draining.server.pid);
    const expected = MESSAGES;
    const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
    while (sink.messageIds.size < expected && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const drained = memoryOf(draining.server.pid);
    const cpuSpent = (cpuSecondsOf(draining.server.pid) ?? Number.NaN) - (cpuBefore ?? Number.NaN);
    if (sink.messageIds.size < expected)
      throw new ServerFailure(
        `${sink.messageIds.size} of ${expected} messages delivered within ${DELIVERY_TIMEOUT_MS / 1000} s`,
      );
    const seconds = (sink.arrivals.at(-1)! - sink.arrivals[0]!) / 1000;
    const rate = (sink.arrivals.length - 1) / seconds;
    console.log(
      `\nDelivery: ${sink.messageIds.size} messages (${sink.arrivals.length} arrivals) to a loopback SMTP server in ${fixed(seconds, 2)} s ` +
        `from the first to the last: ${fixed(rate, 0)} messages/s, ${fixed((cpuSpent * 1e6) / expected, 0)} µs of server CPU each ` +
        `(${fixed((cpuSpent / seconds) * 100, 0)}% of a CPU); RSS ${fixed(idle.rss, 1)} MB at start → ${fixed(drained.rss, 1)} MB drained (peak ${fixed(drained.peak, 1)})`,
    );

    console.log('\nTargets (ratio = median of per-round req/s ratios to crypto enc):');
    console.log(
      `  ${verdict(ratioFull >= TARGET_ACCEPT_RATIO)}  mf mail send (synchronous=full, the default) / crypto >= ${TARGET_ACCEPT_RATIO}: ${fixed(ratioFull, 3)}`,
    );
    console.log(`  info    mn mail send (synchronous=normal) / crypto: ${fixed(ratioNormal, 3)}`);
    console.log(
      `  ${verdict(rate >= TARGET_DELIVERY_PER_SECOND)}  delivery to loopback SMTP >= ${TARGET_DELIVERY_PER_SECOND} messages/s: ${fixed(rate, 0)}`,
    );
    console.log(
      `  ${verdict(sink.arrivals.length === sink.messageIds.size)}  every message arrived once: ${sink.arrivals.length} arrivals, ${sink.messageIds.size} Message-IDs`,
    );
    const failed = measurement.results.reduce((sum, { tally }) => sum + tally.non2xx + tally.errors, 0);
    console.log(`  ${verdict(failed === 0)}  no non-2xx responses or connection errors: ${failed}`);
  } finally {
    await sink.close();
  }
});
