import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { defaultRateLimitOf } from '../../src/config/config.js';
import { loadConfig } from '../../src/config/load-config.js';
import { expectRight } from '../support/either.js';

const errorsOf = (env: NodeJS.ProcessEnv): string[] => {
  const result = loadConfig({ env });
  if (E.isRight(result)) throw new Error('expected the config to be refused');
  return result.left;
};

describe('config: loading and decoding', () => {
  it('serves on port 3000 with SQLite under ./data when nothing is set', () => {
    const config = expectRight(loadConfig({ env: {} }));
    expect(config.port).to.equal(3000);
    expect(config.storage).to.equal('sqlite');
    expect(config.dataDir).to.equal('./data');
    expect(config.encryption.maxPlaintextBytes).to.equal(8192);
  });

  it('lets NODE_ENV files and then environment variables override the defaults', () => {
    const key = randomBytes(32).toString('base64');
    const config = expectRight(
      loadConfig({
        env: {
          NODE_ENV: 'test',
          PORT: '8080',
          UTILITY_API_ENCRYPTION_KEY: key,
          UTILITY_API_PREVIOUS_ENCRYPTION_KEYS: `${key}, ${key}`,
        },
      }),
    );
    expect(config.storage).to.equal('memory');
    expect(config.port).to.equal(8080);
    expect(config.encryption.key).to.equal(key);
    expect(config.encryption.previousKeys).to.deep.equal([key, key]);
  });

  it('DATABASE_URL alone switches storage to PostgreSQL', () => {
    const config = expectRight(loadConfig({ env: { DATABASE_URL: 'postgres://u@localhost/db' } }));
    expect(config.storage).to.equal('postgres');
  });

  it('names each bad setting in one line, with where it came from', () => {
    const lines = errorsOf({ PORT: 'abc', UTILITY_API_STORAGE: 'mongo', LOG_LEVEL: 'loud' });
    expect(lines).to.have.length(3);
    expect(lines.find((l) => l.includes('port'))).to.equal(
      'Invalid setting port (from env PORT): expected an integer from 0 to 65535, got "abc"',
    );
    expect(lines.find((l) => l.includes('storage'))).to.include('env UTILITY_API_STORAGE');
    expect(lines.find((l) => l.includes('log.level'))).to.include('env LOG_LEVEL');
  });

  it('refuses a key that is not 32 bytes without echoing it', () => {
    const lines = errorsOf({ UTILITY_API_ENCRYPTION_KEY: 'c2hvcnQ=' });
    expect(lines).to.deep.equal([
      'Invalid setting encryption.key (from env UTILITY_API_ENCRYPTION_KEY): expected base64 of exactly 32 bytes',
    ]);
  });

  it('gives a stop 10 s to drain and idle kept-alive connections 500 ms, both settable from the environment', () => {
    expect(expectRight(loadConfig({ env: {} })).shutdown).to.deep.include({
      drainDeadlineMs: 10_000,
      idleGraceMs: 500,
    });
    const config = expectRight(
      loadConfig({ env: { UTILITY_API_DRAIN_DEADLINE_MS: '30000', UTILITY_API_IDLE_GRACE_MS: '0' } }),
    );
    expect(config.shutdown).to.deep.include({ drainDeadlineMs: 30_000, idleGraceMs: 0 });
    expect(errorsOf({ UTILITY_API_DRAIN_DEADLINE_MS: '0', UTILITY_API_IDLE_GRACE_MS: '-1' })).to.deep.equal([
      'Invalid setting shutdown.drainDeadlineMs (from env UTILITY_API_DRAIN_DEADLINE_MS): expected an integer from 100 to 600000, got 0',
      'Invalid setting shutdown.idleGraceMs (from env UTILITY_API_IDLE_GRACE_MS): expected an integer from 0 to 60000, got -1',
    ]);
  });

  it('gives headers and bodies 10 s each and idle kept-alive connections 5 s, all settable from the environment', () => {
    expect(expectRight(loadConfig({ env: {} })).http).to.deep.include({
      headersTimeoutMs: 10_000,
      bodyTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
    });
    const config = expectRight(
      loadConfig({
        env: {
          UTILITY_API_HEADERS_TIMEOUT_MS: '2000',
          UTILITY_API_BODY_TIMEOUT_MS: '3000',
          UTILITY_API_KEEP_ALIVE_TIMEOUT_MS: '4000',
        },
      }),
    );
    expect(config.http).to.deep.include({ headersTimeoutMs: 2_000, bodyTimeoutMs: 3_000, keepAliveTimeoutMs: 4_000 });
    expect(errorsOf({ UTILITY_API_BODY_TIMEOUT_MS: '0' })).to.deep.equal([
      'Invalid setting http.bodyTimeoutMs (from env UTILITY_API_BODY_TIMEOUT_MS): expected an integer from 100 to 600000, got 0',
    ]);
  });

  it('takes the DNS servers, the RDAP bootstrap file and the WHOIS server from the environment, and refuses a DNS server that is no IP address', () => {
    const defaults = expectRight(loadConfig({ env: {} })).whois;
    expect(defaults).to.deep.include({
      dnsServers: [],
      dnsTimeoutMs: 3000,
      rdapBootstrapUrl: 'https://data.iana.org/rdap/dns.json',
      whoisServer: 'whois.iana.org:43',
      registrationTtlMs: 3_600_000,
    });
    const set = expectRight(
      loadConfig({
        env: {
          UTILITY_API_DNS_SERVERS: '192.0.2.53, 127.0.0.1:5353,[2001:db8::53]:53',
          UTILITY_API_RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:8080/dns.json',
          UTILITY_API_WHOIS_SERVER: 'whois.example:4343',
        },
      }),
    ).whois;
    expect(set).to.deep.include({
      dnsServers: ['192.0.2.53', '127.0.0.1:5353', '[2001:db8::53]:53'],
      rdapBootstrapUrl: 'http://127.0.0.1:8080/dns.json',
      whoisServer: 'whois.example:4343',
    });
    const [line] = errorsOf({ UTILITY_API_DNS_SERVERS: 'dns.example' });
    expect(line).to.equal(
      'Invalid setting whois.dnsServers (from env UTILITY_API_DNS_SERVERS): expected an IP address, optionally with :port ([v6]:port for IPv6), got "dns.example"',
    );
    expect(
      errorsOf({ UTILITY_API_WHOIS_SERVER: 'whois.example:43/x', UTILITY_API_RDAP_BOOTSTRAP_URL: 'ftp://x' }),
    ).to.have.length(2);
  });

  it('trusts no proxy and lets an address fail 100 logins by default; takes both from the environment, and refuses what is no network', () => {
    const defaults = expectRight(loadConfig({ env: {} }));
    expect(defaults.http.trustedProxies).to.deep.equal([]);
    expect(defaults.auth.loginThrottle).to.deep.equal({ perAddress: 100 });
    const set = expectRight(
      loadConfig({
        env: {
          UTILITY_API_TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8,192.0.2.7/32',
          UTILITY_API_LOGIN_FAILURES_PER_ADDRESS: '500',
        },
      }),
    );
    expect(set.http.trustedProxies).to.deep.equal(['10.0.0.0/8', 'fd00::/8', '192.0.2.7/32']);
    expect(set.auth.loginThrottle.perAddress).to.equal(500);
    expect(errorsOf({ UTILITY_API_TRUSTED_PROXIES: '10.0.0.0/33' })).to.deep.equal([
      'Invalid setting http.trustedProxies (from env UTILITY_API_TRUSTED_PROXIES): expected a network such as 10.0.0.0/8 or fd00::/8 (CIDR, its first address), got "10.0.0.0/33"',
    ]);
    expect(
      errorsOf({ UTILITY_API_TRUSTED_PROXIES: '192.0.2.7', UTILITY_API_LOGIN_FAILURES_PER_ADDRESS: '4' }),
    ).to.have.length(2);
  });

  it('allows no network to outbound connections by default, takes CIDRs from the environment and refuses anything else', () => {
    expect(expectRight(loadConfig({ env: {} })).outbound).to.deep.equal({ allowedNetworks: [] });
    const set = expectRight(
      loadConfig({ env: { UTILITY_API_OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8, 10.20.0.0/16,fd00::/8,::1/128' } }),
    ).outbound;
    expect(set).to.deep.equal({ allowedNetworks: ['127.0.0.0/8', '10.20.0.0/16', 'fd00::/8', '::1/128'] });
    for (const bad of [
      '10.0.0.1/8',
      '127.1/8',
      '10.0.0.0/33',
      '10.0.0.0',
      'localhost/8',
      'fd00::1/8',
      '10.0.0.0/8/8',
      '0x0a.0.0.0/8',
    ]) {
      const [line] = errorsOf({ UTILITY_API_OUTBOUND_ALLOWED_NETWORKS: bad });
      expect(line, bad).to.equal(
        `Invalid setting outbound.allowedNetworks (from env UTILITY_API_OUTBOUND_ALLOWED_NETWORKS): expected a network such as 10.0.0.0/8 or fd00::/8 (CIDR, its first address), got ${JSON.stringify(bad)}`,
      );
    }
  });

  it('sends mail as .eml files from utility-api@localhost by default, with a worker; SMTP, sender, worker, lease and attempts from the environment', () => {
    expect(expectRight(loadConfig({ env: {} })).mail).to.deep.include({
      from: 'utility-api@localhost',
      smtpUrl: null,
      worker: true,
      maxAttempts: 8,
      leaseMs: 120_000,
    });
    expect(expectRight(loadConfig({ env: {} })).database.sqliteSynchronous).to.equal('full');
    const config = expectRight(
      loadConfig({
        env: {
          UTILITY_API_SMTP_URL: 'smtps://mailer:s3cret@smtp.example.com:465',
          UTILITY_API_MAIL_FROM: 'noreply@bücher.example',
          UTILITY_API_MAIL_WORKER: 'false',
          UTILITY_API_MAIL_LEASE_MS: '30000',
          UTILITY_API_MAIL_MAX_ATTEMPTS: '3',
          UTILITY_API_SQLITE_SYNCHRONOUS: 'normal',
        },
      }),
    );
    expect(config.mail).to.deep.include({
      smtpUrl: 'smtps://mailer:s3cret@smtp.example.com:465',
      from: 'noreply@bücher.example',
      worker: false,
      leaseMs: 30_000,
      maxAttempts: 3,
    });
    expect(config.database.sqliteSynchronous).to.equal('normal');
  });

  it('refuses a mail setting it cannot use, never echoing an SMTP URL, which may hold a password', () => {
    const refused = errorsOf({
      UTILITY_API_SMTP_URL: 'http://mailer:s3cret@smtp.example.com',
      UTILITY_API_MAIL_FROM: 'Support <noreply@example.com>',
      UTILITY_API_MAIL_WORKER: 'yes',
      UTILITY_API_SQLITE_SYNCHRONOUS: 'off',
    });
    expect(refused).to.deep.equal([
      'Invalid setting database.sqliteSynchronous (from env UTILITY_API_SQLITE_SYNCHRONOUS): expected "full" or "normal", got "off"',
      'Invalid setting mail.from (from env UTILITY_API_MAIL_FROM): expected an email address such as noreply@example.com, got "Support <noreply@example.com>"',
      'Invalid setting mail.smtpUrl (from env UTILITY_API_SMTP_URL): expected an smtp:// or smtps:// URL, or "memory"',
      'Invalid setting mail.worker (from env UTILITY_API_MAIL_WORKER): expected true or false, got "yes"',
    ]);
    expect(refused.join('\n')).to.not.include('s3cret');
    const backwards = loadConfig({ env: {}, overrides: { mail: { retryBaseMs: 60_000, retryMaxMs: 1000 } } });
    expect(E.isLeft(backwards) && backwards.left).to.deep.equal([
      'Invalid setting mail.retryMaxMs: expected at least mail.retryBaseMs (60000), got 1000',
    ]);
  });

  it('limits a user’s mail to 500 recipients an hour and 2000 a day unless told otherwise or off, and never below one message’s 50', () => {
    expect(expectRight(loadConfig({ env: {} })).mail).to.deep.include({
      maxRecipientsPerHour: 500,
      maxRecipientsPerDay: 2000,
    });
    const config = expectRight(
      loadConfig({
        env: { UTILITY_API_MAIL_MAX_RECIPIENTS_PER_HOUR: '50', UTILITY_API_MAIL_MAX_RECIPIENTS_PER_DAY: 'off' },
      }),
    );
    expect(config.mail).to.deep.include({ maxRecipientsPerHour: 50, maxRecipientsPerDay: null });
    expect(
      errorsOf({ UTILITY_API_MAIL_MAX_RECIPIENTS_PER_HOUR: '49', UTILITY_API_MAIL_MAX_RECIPIENTS_PER_DAY: 'lots' }),
    ).to.deep.equal([
      'Invalid setting mail.maxRecipientsPerHour (from env UTILITY_API_MAIL_MAX_RECIPIENTS_PER_HOUR): expected an integer from 50 to 100000000, or null ("off" in the environment) for no limit, got 49',
      'Invalid setting mail.maxRecipientsPerDay (from env UTILITY_API_MAIL_MAX_RECIPIENTS_PER_DAY): expected an integer from 50 to 100000000, or null ("off" in the environment) for no limit, got "lots"',
    ]);
  });

  it('limits each token to 1000 requests per 10 s unless told otherwise or off, and takes Redis, CORS and the readiness grace from the environment', () => {
    const defaults = expectRight(loadConfig({ env: {} }));
    expect(defaults.rateLimit).to.deep.equal({ defaultPolicy: '1000/10' });
    expect(defaultRateLimitOf(defaults)).to.deep.equal({ requests: 1000, perSeconds: 10 });
    expect(defaults.redis).to.deep.equal({ url: null, keyPrefix: 'utility-api:', commandTimeoutMs: 250 });
    expect(defaults.cors).to.deep.equal({ origins: [], maxAgeSeconds: 600 });
    expect(defaults.shutdown.readinessGraceMs).to.equal(0);
    const set = expectRight(
      loadConfig({
        env: {
          UTILITY_API_RATE_LIMIT: '60/60',
          REDIS_URL: 'redis://:secret@127.0.0.1:6379/2',
          UTILITY_API_REDIS_KEY_PREFIX: 'blue:',
          UTILITY_API_REDIS_TIMEOUT_MS: '100',
          UTILITY_API_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
          UTILITY_API_CORS_MAX_AGE: '60',
          UTILITY_API_READINESS_GRACE_MS: '5000',
        },
      }),
    );
    expect(defaultRateLimitOf(set)).to.deep.equal({ requests: 60, perSeconds: 60 });
    expect(set.redis).to.deep.equal({
      url: 'redis://:secret@127.0.0.1:6379/2',
      keyPrefix: 'blue:',
      commandTimeoutMs: 100,
    });
    expect(set.cors).to.deep.equal({
      origins: ['https://app.example.com', 'http://localhost:5173'],
      maxAgeSeconds: 60,
    });
    expect(set.shutdown.readinessGraceMs).to.equal(5000);
    expect(defaultRateLimitOf(expectRight(loadConfig({ env: { UTILITY_API_RATE_LIMIT: 'off' } })))).to.equal(null);
    expect(
      errorsOf({
        UTILITY_API_RATE_LIMIT: '1000 per 10s',
        UTILITY_API_CORS_ORIGINS: 'https://app.example.com/path',
        REDIS_URL: 'http://:hunter2@redis',
      }),
    ).to.deep.equal([
      'Invalid setting rateLimit.defaultPolicy (from env UTILITY_API_RATE_LIMIT): expected "<requests>/<seconds>" such as "1000/10" (at most 1000000000 requests, 86400 s), or "off", got "1000 per 10s"',
      'Invalid setting redis.url (from env REDIS_URL): expected a redis:// or rediss:// URL',
      'Invalid setting cors.origins (from env UTILITY_API_CORS_ORIGINS): expected an origin such as "https://app.example.com" (scheme://host[:port], no path), or "*", got "https://app.example.com/path"',
    ]);
    expect(errorsOf({ UTILITY_API_RATE_LIMIT: '0/10' })).to.have.length(1);
    expect(errorsOf({ UTILITY_API_RATE_LIMIT: '10/86401' })).to.have.length(1);
  });

  it('prices no operation by default; takes quota.costs as JSON from the environment, and refuses a permission of no family, a cost below 1 or text that is not JSON', () => {
    expect(expectRight(loadConfig({ env: {} })).quota).to.deep.equal({ costs: {} });
    const priced = expectRight(loadConfig({ env: { UTILITY_API_QUOTA_COSTS: '{"Barcode::Generate": 5}' } }));
    expect(priced.quota.costs).to.deep.equal({ 'Barcode::Generate': 5 });
    for (const bad of ['{"Nothing::Here": 2}', '{"Barcode::Generate": 0}', '{"Barcode::Generate": 1.5}', 'five', '[5]'])
      expect(errorsOf({ UTILITY_API_QUOTA_COSTS: bad }), bad)
        .to.have.length(1)
        .and.satisfy((lines: string[]) => lines[0]!.startsWith('Invalid setting quota.costs'));
  });

  it('turns no family off by default; takes the families (and the console) to turn off from the environment, and refuses a name that is neither', () => {
    expect(expectRight(loadConfig({ env: {} })).features.disabled).to.deep.equal([]);
    expect(
      expectRight(loadConfig({ env: { UTILITY_API_DISABLED_FAMILIES: 'Weather, Mail, Console' } })).features.disabled,
    ).to.deep.equal(['Weather', 'Mail', 'Console']);
    const [refused] = errorsOf({ UTILITY_API_DISABLED_FAMILIES: 'Weather,weather' });
    expect(refused).to.match(
      /^Invalid setting features\.disabled \(from env UTILITY_API_DISABLED_FAMILIES\): expected one of Cryptography, Password, Users, Tokens, .*System, Console, got "weather"$/,
    );
    expect(errorsOf({ UTILITY_API_DISABLED_FAMILIES: 'console' })[0]).to.match(/got "console"$/);
  });

  it('refuses production without a key, and postgres without a URL', () => {
    expect(errorsOf({ NODE_ENV: 'production' })[0]).to.match(
      /^Missing setting encryption.key: set UTILITY_API_ENCRYPTION_KEY/,
    );
    expect(errorsOf({ UTILITY_API_STORAGE: 'postgres' })[0]).to.match(/database.url/);
  });

  it('hashes passwords at scrypt cost 15 unless told otherwise, and never below it in production', () => {
    expect(expectRight(loadConfig({ env: {} })).auth.passwordCost).to.equal(15);
    expect(expectRight(loadConfig({ env: { UTILITY_API_SCRYPT_COST: '17' } })).auth.passwordCost).to.equal(17);
    const key = randomBytes(32).toString('base64');
    expect(
      errorsOf({ NODE_ENV: 'production', UTILITY_API_ENCRYPTION_KEY: key, UTILITY_API_SCRYPT_COST: '14' }),
    ).to.deep.equal([
      'Invalid setting auth.passwordCost: NODE_ENV=production hashes passwords at scrypt cost 15 or more (env UTILITY_API_SCRYPT_COST)',
    ]);
    expect(errorsOf({ UTILITY_API_SCRYPT_COST: '3' })[0]).to.match(
      /^Invalid setting auth.passwordCost \(from env UTILITY_API_SCRYPT_COST\)/,
    );
  });

  it('counts a point within 50 km of a place as near one unless told otherwise, from the environment too, and refuses what is no distance', () => {
    expect(expectRight(loadConfig({ env: {} })).location).to.include({ nearbyKm: 50 });
    expect(expectRight(loadConfig({ env: { UTILITY_API_LOCATION_NEARBY_KM: '120' } })).location.nearbyKm).to.equal(120);
    const [line] = errorsOf({ UTILITY_API_LOCATION_NEARBY_KM: '0' });
    expect(line).to.equal(
      'Invalid setting location.nearbyKm (from env UTILITY_API_LOCATION_NEARBY_KM): expected an integer from 1 to 20000, got 0',
    );
    expect(errorsOf({ UTILITY_API_LOCATION_NEARBY_KM: 'far' })).to.have.length(1);
  });

  it('sends nothing to a geocoder unless one is named, and takes Photon’s or Nominatim’s API alone', () => {
    expect(expectRight(loadConfig({ env: {} })).location).to.include({ geocoderUrl: 'off', geocoderApi: 'photon' });
    const named = expectRight(
      loadConfig({
        env: {
          UTILITY_API_LOCATION_GEOCODER_URL: 'https://nominatim.example.org',
          UTILITY_API_LOCATION_GEOCODER_API: 'nominatim',
        },
      }),
    ).location;
    expect(named).to.include({ geocoderUrl: 'https://nominatim.example.org', geocoderApi: 'nominatim' });
    expect(errorsOf({ UTILITY_API_LOCATION_GEOCODER_URL: 'photon.local' })[0]).to.match(
      /^Invalid setting location\.geocoderUrl \(from env UTILITY_API_LOCATION_GEOCODER_URL\)/,
    );
    expect(errorsOf({ UTILITY_API_LOCATION_GEOCODER_API: 'google' })[0]).to.match(
      /^Invalid setting location\.geocoderApi \(from env UTILITY_API_LOCATION_GEOCODER_API\)/,
    );
  });
});
