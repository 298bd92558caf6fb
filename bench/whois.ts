/**
 * Domain lookups on cached answers against the authenticated crypto endpoint, in one product
 * process, in the same run: the DNS server and the registries are loopback fixtures in this
 * process, asked once per name; every request measured is answered from the product's caches.
 * See bench/README.md.
 */
import { startDnsFixture } from '../tests/support/dns-fixture.js';
import { ZONE } from '../tests/support/dns-zone.js';
import { startRegistries } from '../tests/support/registry-fixtures.js';
import { pinSelf } from './cpu-pinning.js';
import { describeRun, measureRounds, roundRatio } from './measurement.js';
import { fillCaches, startProduct, targetsBesideCrypto } from './product.js';
import { fixed, printResults, verdict } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { isBase64url } from './server-processes.js';

const TARGET_RATIO_TO_CRYPTO = 0.5;

/** Names the fixtures know: an RDAP registration (.com) and a WHOIS one (.co.uk), and their DNS records. */
const ENDPOINTS: readonly { id: string; label: string; paths: readonly string[] }[] = [
  {
    id: 'wd',
    label: 'whois/dns',
    paths: ['example.com', 'www.example.com', 'www.bbc.co.uk', 'xn--bcher-kva.example'].map(
      (name) => `/api/whois/dns?domain=${name}`,
    ),
  },
  {
    id: 'ww',
    label: 'whois/whois',
    paths: ['example.com', 'www.example.com', 'bbc.co.uk', 'www.bbc.co.uk'].map(
      (name) => `/api/whois/whois?domain=${name}`,
    ),
  },
  {
    id: 'wf',
    label: 'whois/full',
    paths: ['example.com', 'www.example.com', 'www.bbc.co.uk'].map((name) => `/api/whois/full?domain=${name}`),
  },
];

await runBenchmark(async (settings) => {
  const pinning = await pinSelf();
  const dns = await startDnsFixture(ZONE);
  const registries = await startRegistries();
  try {
    const cryptoPath = '/api/crypto/enc?data=0123456789abcdefghijABCDEFGHIJ01';
    const product = await startProduct(pinning, ['Cryptography::*', 'Whois::*'], cryptoPath, isBase64url, {
      UTILITY_API_DNS_SERVERS: dns.server,
      UTILITY_API_RDAP_BOOTSTRAP_URL: registries.rdap.bootstrapUrl,
      UTILITY_API_WHOIS_SERVER: registries.root.server,
      UTILITY_API_OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
    });
    describeRun(pinning, settings, ['c', ...ENDPOINTS.map((endpoint) => endpoint.id)]);

    // Fills the caches: from here on no request reaches a fixture.
    await fillCaches(
      product,
      ENDPOINTS.flatMap((endpoint) => endpoint.paths),
    );
    const asked = {
      dns: dns.queries.length,
      rdap: registries.rdap.calls.length,
      whois: registries.root.queries.length + registries.tld.queries.length,
    };

    const targets = targetsBesideCrypto(product, cryptoPath, ENDPOINTS);
    const measurement = await measureRounds(targets, settings);
    printResults(measurement);

    const crypto = measurement.results[0]!;
    const askedDuring =
      dns.queries.length -
      asked.dns +
      registries.rdap.calls.length -
      asked.rdap +
      registries.root.queries.length +
      registries.tld.queries.length -
      asked.whois;
    console.log('\nTargets (ratio = median of per-round req/s ratios to crypto enc):');
    for (const [index, endpoint] of ENDPOINTS.entries()) {
      const ratio = roundRatio(measurement.results[index + 1]!.tally, crypto.tally);
      console.log(
        `  ${verdict(ratio >= TARGET_RATIO_TO_CRYPTO)}  ${endpoint.id.padEnd(3)} ${endpoint.label} (cached) / crypto >= ${TARGET_RATIO_TO_CRYPTO}: ${fixed(ratio, 3)}`,
      );
    }
    console.log(
      `  ${verdict(askedDuring === 0)}  every measured answer came from cache (questions to DNS and the registries during the rounds: ${askedDuring})`,
    );
    const failed = measurement.results.reduce((sum, { tally }) => sum + tally.non2xx + tally.errors, 0);
    console.log(`  ${verdict(failed === 0)}  no non-2xx responses or connection errors: ${failed}`);
  } finally {
    await Promise.all([dns.close(), registries.close()]);
  }
});
