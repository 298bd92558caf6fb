import { expect } from 'chai';
import { startContentFixture, contentUpstreamsAt, type ContentFixture } from './content-fixture.js';
import { startDnsFixture, type DnsFixture } from './dns-fixture.js';
import { ZONE } from './dns-zone.js';
import { expectRight } from './either.js';
import { startHiveFixture, type HiveFixture } from './hive-fixture.js';
import { startServer, type TestServer } from './http-server.js';
import { openMeteoAt, startOpenMeteoFixture, type OpenMeteoFixture } from './open-meteo-fixture.js';
import { startRegistries, type Registries } from './registry-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/**
 * A server whose every upstream is a loopback fixture, as the reference's examples are tried and
 * recorded against it: each upstream-backed operation answers as it would on the internet, a quote
 * is imported (none are bundled), and a webhook receiver listens on loopback.
 */
export interface ReferenceWorld {
  readonly server: TestServer;
  /** A receiver webhooks may be sent to (http, on loopback, which this server allows). */
  readonly receiver: WebhookReceiver;
  /** Addresses of the fixtures that answers show, and the real service's address a reader would see instead. */
  readonly shownAs: readonly (readonly [fixture: string, real: string])[];
  close(): Promise<void>;
}

export async function openReferenceWorld(): Promise<ReferenceWorld> {
  const [hive, weather, content, dns, registries, receiver]: [
    HiveFixture,
    OpenMeteoFixture,
    ContentFixture,
    DnsFixture,
    Registries,
    WebhookReceiver,
  ] = await Promise.all([
    startHiveFixture(),
    startOpenMeteoFixture(),
    startContentFixture(),
    startDnsFixture(ZONE),
    startRegistries(),
    startWebhookReceiver('127.0.0.1'),
  ]);
  const server = await startServer({
    env: { ...openMeteoAt(weather), ...contentUpstreamsAt(content) },
    overrides: {
      hive: { baseUrl: hive.url },
      whois: {
        dnsServers: [dns.server],
        rdapBootstrapUrl: registries.rdap.bootstrapUrl,
        ...registries.rdap.numberBootstrapUrls,
        whoisServer: registries.root.server,
      },
      // The registries and the webhook's receiver are on loopback too.
      outbound: { allowedNetworks: ['127.0.0.0/8'] },
      webhooks: { allowHttp: true },
      // Usage history written soon, so that what the reference records of it has counts in it.
      usage: { flushIntervalMs: 100 },
    },
  });
  // Quotes of real people come from an operator's import (none are bundled): one, as the CLI imports it.
  const imported = expectRight(
    await server.app.useCases.content.importContent.execute('quote', 'library', {
      content: 'text,author\n"Simple things should be simple, complex things should be possible.",Alan Kay\n',
      format: 'csv',
    }),
  );
  expect(imported).to.deep.include({ added: 1, refused: 0 });
  return {
    server,
    receiver,
    // Verisign's RDAP service for .com and RIPE NCC's for its addresses and AS numbers, which the fixture stands in for.
    shownAs: [
      [`${registries.rdap.url}/rdap/domain`, 'https://rdap.verisign.com/com/v1/domain'],
      [`${registries.rdap.url}/rdap`, 'https://rdap.db.ripe.net'],
    ],
    async close() {
      await server.close();
      await Promise.all([
        hive.close(),
        weather.close(),
        content.close(),
        dns.close(),
        registries.close(),
        receiver.close(),
      ]);
    },
  };
}
