/**
 * Mixed load (issue 32): the product as `npm start` runs it, asked for two minutes by 50
 * connections at once for a mix of what its users ask — crypto, barcodes (repeated and fresh
 * content), phone numbers, the dictionary, places, token info, mail sent through the outbox and
 * the user list — each connection sending its next request as soon as the last is answered. It
 * reports, per kind and in all, the requests answered, the errors (any answer but the expected
 * status, or no answer), p50, p99 and the worst latency, and the server's RSS in the first and the
 * last 30 s. Goals: no error, p99 under 40 ms, RSS growing less than 10 % between the two. See
 * bench/README.md.
 */
import process from 'node:process';
import { Pool } from 'undici';
import type { Pinning } from './cpu-pinning.js';
import { startProduct } from './product.js';
import { fixed, table, verdict } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { cpuSecondsOf } from './measurement.js';
import { memoryOf, ServerFailure } from './server-processes.js';

const seconds = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d{0,4}$/.test(raw)) throw new ServerFailure(`${name} must be a whole number of seconds, got "${raw}"`);
  return Number(raw);
};
const DURATION_SECONDS = seconds('BENCH_MIXED_SECONDS', 120);
/** The first and the last this many seconds are compared for the RSS's growth. */
const WINDOW_SECONDS = Math.min(30, Math.floor(DURATION_SECONDS / 4) || 1);
const CONNECTIONS = 50;
const TARGET_P99_MS = 40;
const TARGET_RSS_GROWTH = 0.1;
/** Users stored before the run, for the user list to search (each password costs scrypt's time once). */
const STORED_USERS = 100;

const PERMISSIONS = [
  'Cryptography::*',
  'Barcode::*',
  'Phone::*',
  'Dictionary::*',
  'Location::*',
  'Mail::Send',
  'Users::Read',
  'Users::Create',
];

const WORDS = ['good', 'run', 'light', 'fast', 'open', 'rise', 'happy', 'strong', 'cold', 'increase'];
const PLACES = ['Paris', 'Tokyo', 'London', 'Berlin', 'Springfield', 'Cambridge, MA', 'São Paulo', 'Hallstatt'];
const NUMBERS = ['+33 1 42 68 53 00', '+1 202-456-1111', '+44 20 7946 0958', '+81 3-3224-9999', '+49 30 227 0'];
const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

interface Kind {
  readonly name: string;
  /** Its share of the requests, out of the weights' sum. */
  readonly weight: number;
  readonly status: number;
  readonly request: (n: number) => { path: string; method?: 'GET' | 'POST'; body?: unknown };
}

const KINDS: readonly Kind[] = [
  { name: 'crypto enc', weight: 25, status: 200, request: (n) => ({ path: `/api/crypto/enc?data=mixed-${n % 1000}` }) },
  {
    name: 'barcode, repeated content',
    weight: 10,
    status: 200,
    request: (n) => ({ path: `/api/barcode/gen/qrcode?format=svg&content=mixed-${n % 20}` }),
  },
  {
    name: 'barcode, fresh content',
    weight: 5,
    status: 200,
    request: (n) => ({ path: `/api/barcode/gen/code128?format=svg&content=mixed-fresh-${n}` }),
  },
  {
    name: 'phone details',
    weight: 10,
    status: 200,
    request: (n) => ({ path: `/api/phone/details?number=${encodeURIComponent(pick(NUMBERS, n))}` }),
  },
  {
    name: 'dictionary def',
    weight: 10,
    status: 200,
    request: (n) => ({ path: `/api/dictionary/def?word=${pick(WORDS, n)}` }),
  },
  {
    name: 'location coords',
    weight: 10,
    status: 200,
    request: (n) => ({ path: `/api/location/coords?address=${encodeURIComponent(pick(PLACES, n))}` }),
  },
  { name: 'token info', weight: 15, status: 200, request: () => ({ path: '/api/token/info' }) },
  {
    name: 'mail send',
    weight: 5,
    status: 202,
    request: (n) => ({
      path: '/api/mail/send',
      method: 'POST',
      body: {
        to: `reader${n % 100}@example.com`,
        subject: 'Mixed load',
        content: `Message **${n}** of the mixed load.`,
      },
    }),
  },
  {
    name: 'user list, query',
    weight: 10,
    status: 200,
    request: (n) => ({ path: `/api/user/list?query=${pick(['m', 'mi', 'mixed1', 'ada'], n)}` }),
  },
];

/** Latencies in ms, grown as they come. */
class Samples {
  private values = new Float64Array(1 << 16);
  count = 0;
  errors = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.count++] = ms;
  }

  sorted(): Float64Array {
    return this.values.slice(0, this.count).sort();
  }
}

const at = (sorted: Float64Array, share: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;

await runBenchmark(async () => {
  // Not pinned: pinned to one core with the product's event loop, the barcode drawing worker
  // took that core from it at every drawing (the product's default is a worker per core beyond
  // the first, to have the cores the event loop does not use), which no user runs.
  const pinning: Pinning = {
    mode: 'unpinned',
    reason: 'the drawing worker is to have the core the event loop does not use, as where the product runs',
  };
  const product = await startProduct(pinning, PERMISSIONS, '/api/token/info', () => undefined, {
    // The outbox takes every message; the per-user recipient limits would refuse most of two minutes' worth.
    UTILITY_API_MAIL_MAX_RECIPIENTS_PER_HOUR: 'off',
    UTILITY_API_MAIL_MAX_RECIPIENTS_PER_DAY: 'off',
  });
  const pool = new Pool(product.baseUrl, { connections: CONNECTIONS, pipelining: 1 });
  const ask = async (kind: Kind, n: number): Promise<boolean> => {
    const { path, method = 'GET', body } = kind.request(n);
    const response = await pool.request({
      path,
      method,
      headers: body === undefined ? product.headers : { ...product.headers, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    await response.body.arrayBuffer();
    return response.statusCode === kind.status;
  };

  // Users for the list to find, and one of each kind asked first: the first uses load data, which is no growth.
  for (let n = 0; n < STORED_USERS; n++) {
    const created = await pool.request({
      path: '/api/user/create',
      method: 'POST',
      headers: { ...product.headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        username: `mixed${n}`,
        firstname: pick(['Ada', 'Grace', 'Alan', 'Mina'], n),
        lastname: 'Mixed',
        email: `mixed${n}@example.com`,
        password: `mixed-load-${n}-password`,
      }),
    });
    const answer = await created.body.text();
    if (created.statusCode !== 201)
      throw new ServerFailure(`creating user mixed${n} answered ${created.statusCode}: ${answer}`);
  }
  for (const kind of KINDS)
    for (let n = 0; n < 20; n++)
      if (!(await ask(kind, n)))
        throw new ServerFailure(`${kind.name}: ${kind.request(n).path} was not answered ${kind.status}`);
  // Every connection opened before the clock starts, as a client that keeps its connections does.
  // Opened at once by the run's first requests, new connections' first requests are answered one
  // after another, a few ms apart: 0.3 to 1.1 s for the last here (the worst of every kind in
  // earlier runs), 229 ms for the last of 50 on a bare Node server behind the same pool.
  const opening = await Promise.all(Array.from({ length: CONNECTIONS }, () => ask(KINDS[0]!, 0)));
  if (opening.includes(false)) throw new ServerFailure('a request opening a connection was not answered as expected');

  const totalWeight = KINDS.reduce((sum, kind) => sum + kind.weight, 0);
  const kindAt = (draw: number): Kind => {
    let left = draw % totalWeight;
    for (const kind of KINDS) {
      if (left < kind.weight) return kind;
      left -= kind.weight;
    }
    return KINDS[0]!;
  };
  const samples = new Map(KINDS.map((kind) => [kind, new Samples()]));
  const rss: { second: number; mb: number }[] = [];
  const serverCpuBefore = cpuSecondsOf(product.server.pid);
  const benchCpuBefore = process.cpuUsage();
  const started = performance.now();
  const endsAt = started + DURATION_SECONDS * 1000;
  const sampler = setInterval(() => {
    rss.push({ second: (performance.now() - started) / 1000, mb: memoryOf(product.server.pid).rss });
  }, 1000);
  let sequence = 0;
  process.stdout.write(`${CONNECTIONS} connections for ${DURATION_SECONDS} s...\n`);
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < endsAt) {
        const n = sequence++;
        // A prime stride spreads the kinds over the sequence without a random source's cost.
        const kind = kindAt(n * 7919);
        const own = samples.get(kind)!;
        const sent = performance.now();
        const answered = await ask(kind, n).catch(() => false);
        own.add(performance.now() - sent);
        if (!answered) own.errors++;
      }
    }),
  );
  clearInterval(sampler);
  const elapsedSeconds = (performance.now() - started) / 1000;
  const serverCpuSeconds = (cpuSecondsOf(product.server.pid) ?? Number.NaN) - (serverCpuBefore ?? Number.NaN);
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const benchCpuSeconds = (benchCpu.user + benchCpu.system) / 1e6;
  await pool.close();
  if (product.server.exit !== undefined) throw new ServerFailure(`the product died: ${product.server.exit}`);

  const rows: string[][] = [['kind', 'requests', 'errors', 'req/s', 'p50 ms', 'p99 ms', 'max ms']];
  const all = new Samples();
  for (const kind of KINDS) {
    const own = samples.get(kind)!;
    const sorted = own.sorted();
    for (const value of sorted) all.add(value);
    all.errors += own.errors;
    rows.push([
      kind.name,
      String(own.count),
      String(own.errors),
      fixed(own.count / DURATION_SECONDS, 0),
      fixed(at(sorted, 0.5), 2),
      fixed(at(sorted, 0.99), 2),
      fixed(sorted.at(-1) ?? Number.NaN, 2),
    ]);
  }
  const sortedAll = all.sorted();
  rows.push([
    'all',
    String(all.count),
    String(all.errors),
    fixed(all.count / DURATION_SECONDS, 0),
    fixed(at(sortedAll, 0.5), 2),
    fixed(at(sortedAll, 0.99), 2),
    fixed(sortedAll.at(-1) ?? Number.NaN, 2),
  ]);
  /** The RSS read in (from, to] seconds of the run, averaged. */
  const rssBetween = (from: number, to: number): number => {
    const picked = rss.filter(({ second }) => second > from && second <= to);
    return picked.reduce((sum, { mb }) => sum + mb, 0) / picked.length;
  };
  const first = rssBetween(0, WINDOW_SECONDS);
  const last = rssBetween(DURATION_SECONDS - WINDOW_SECONDS, Number.POSITIVE_INFINITY);
  const growth = (last - first) / first;
  process.stdout.write(`${table(rows)}\n\n`);
  // The RSS over the run, a window at a time: whether what it grows by levels off or keeps growing.
  const curve = Array.from({ length: Math.ceil(DURATION_SECONDS / WINDOW_SECONDS) }, (_, index) => {
    const end = (index + 1) * WINDOW_SECONDS;
    return `${end} s ${fixed(rssBetween(end - WINDOW_SECONDS, end), 1)}`;
  });
  process.stdout.write(`RSS (MB, mean of each ${WINDOW_SECONDS} s): ${curve.join(', ')}\n\n`);
  // Which side was the limit: a server busy all the time on its core has no room left; the bench's own share says whether it was the client instead.
  process.stdout.write(
    `Server CPU: ${fixed((serverCpuSeconds / elapsedSeconds) * 100, 0)} % of one core, ` +
      `${fixed((serverCpuSeconds * 1e6) / all.count, 0)} µs per request (every thread of the process); ` +
      `the bench's own: ${fixed((benchCpuSeconds / elapsedSeconds) * 100, 0)} % of one core.\n\n`,
  );
  process.stdout.write(
    `${table([
      ['goal', 'measured', ''],
      ['no error', String(all.errors), verdict(all.errors === 0)],
      [
        `p99 under ${TARGET_P99_MS} ms`,
        `${fixed(at(sortedAll, 0.99), 2)} ms`,
        verdict(at(sortedAll, 0.99) < TARGET_P99_MS),
      ],
      [
        `RSS growth under ${TARGET_RSS_GROWTH * 100} % (first ${WINDOW_SECONDS} s → last ${WINDOW_SECONDS} s)`,
        `${fixed(first, 1)} → ${fixed(last, 1)} MB (${fixed(growth * 100, 1)} %)`,
        verdict(growth < TARGET_RSS_GROWTH),
      ],
    ])}\n`,
  );
});
