/**
 * Weather on cached answers against the authenticated crypto endpoint, in one product process, in
 * the same run: Open-Meteo is the loopback fixture the tests use, in this process, asked once per
 * question; every request measured is answered from the product's cache. See bench/README.md.
 */
import { openMeteoAt, startOpenMeteoFixture } from '../tests/support/open-meteo-fixture.js';
import { pinSelf } from './cpu-pinning.js';
import { describeRun, measureRounds, roundRatio } from './measurement.js';
import { fillCaches, startProduct, targetsBesideCrypto } from './product.js';
import { fixed, printResults, verdict } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { isBase64url } from './server-processes.js';

const TARGET_RATIO_TO_CRYPTO = 0.5;

/** Points on every continent, and cities the gazetteer finds (one with its country), each a question of its own. */
const POINTS = [
  '52.52&lon=13.41',
  '48.85&lon=2.35',
  '35.69&lon=139.69',
  '-33.87&lon=151.21',
  '40.71&lon=-74.01',
  '-23.55&lon=-46.63',
  '6.52&lon=3.38',
  '28.61&lon=77.21',
];
const CITIES = ['Berlin', 'Paris,%20FR', 'Tokyo', 'London', 'Madrid', 'Sydney', 'Lagos', 'Lima'];

const ENDPOINTS: readonly { id: string; label: string; paths: readonly string[] }[] = [
  { id: 'wc', label: 'weather/current by lat/lon', paths: POINTS.map((point) => `/api/weather/current?lat=${point}`) },
  {
    id: 'wf',
    label: 'weather/forecast by city, 7 days',
    paths: CITIES.map((city) => `/api/weather/forecast?city=${city}`),
  },
];

await runBenchmark(async (settings) => {
  const pinning = await pinSelf();
  const openMeteo = await startOpenMeteoFixture();
  try {
    const cryptoPath = '/api/crypto/enc?data=0123456789abcdefghijABCDEFGHIJ01';
    const product = await startProduct(
      pinning,
      ['Cryptography::*', 'Weather::*'],
      cryptoPath,
      isBase64url,
      openMeteoAt(openMeteo),
    );
    describeRun(pinning, settings, ['c', ...ENDPOINTS.map((endpoint) => endpoint.id)]);

    // Fills the cache (the conditions for 10 minutes, forecasts for an hour): from here on no request reaches Open-Meteo.
    await fillCaches(
      product,
      ENDPOINTS.flatMap((endpoint) => endpoint.paths),
    );
    const asked = openMeteo.calls.length;

    const targets = targetsBesideCrypto(product, cryptoPath, ENDPOINTS);
    const measurement = await measureRounds(targets, settings);
    printResults(measurement);

    const crypto = measurement.results[0]!;
    const askedDuring = openMeteo.calls.length - asked;
    console.log('\nTargets (ratio = median of per-round req/s ratios to crypto enc):');
    for (const [index, endpoint] of ENDPOINTS.entries()) {
      const ratio = roundRatio(measurement.results[index + 1]!.tally, crypto.tally);
      console.log(
        `  ${verdict(ratio >= TARGET_RATIO_TO_CRYPTO)}  ${endpoint.id.padEnd(3)} ${endpoint.label} (cached) / crypto >= ${TARGET_RATIO_TO_CRYPTO}: ${fixed(ratio, 3)}`,
      );
    }
    console.log(
      `  ${verdict(askedDuring === 0)}  every measured answer came from cache (calls to Open-Meteo during the rounds: ${askedDuring})`,
    );
    const failed = measurement.results.reduce((sum, { tally }) => sum + tally.non2xx + tally.errors, 0);
    console.log(`  ${verdict(failed === 0)}  no non-2xx responses or connection errors: ${failed}`);
  } finally {
    await openMeteo.close();
  }
});
