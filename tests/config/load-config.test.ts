import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
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
    const config = expectRight(loadConfig({ env: { NODE_ENV: 'test', PORT: '8080', UTILITY_API_ENCRYPTION_KEY: key, UTILITY_API_PREVIOUS_ENCRYPTION_KEYS: `${key}, ${key}` } }));
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
    expect(lines.find((l) => l.includes('port'))).to.equal('Invalid setting port (from env PORT): expected an integer from 0 to 65535, got "abc"');
    expect(lines.find((l) => l.includes('storage'))).to.include('env UTILITY_API_STORAGE');
    expect(lines.find((l) => l.includes('log.level'))).to.include('env LOG_LEVEL');
  });

  it('refuses a key that is not 32 bytes without echoing it', () => {
    const lines = errorsOf({ UTILITY_API_ENCRYPTION_KEY: 'c2hvcnQ=' });
    expect(lines).to.deep.equal(['Invalid setting encryption.key (from env UTILITY_API_ENCRYPTION_KEY): expected base64 of exactly 32 bytes']);
  });

  it('gives a stop 10 s to drain and idle kept-alive connections 500 ms, both settable from the environment', () => {
    expect(expectRight(loadConfig({ env: {} })).shutdown).to.deep.equal({ drainDeadlineMs: 10_000, idleGraceMs: 500 });
    const config = expectRight(loadConfig({ env: { UTILITY_API_DRAIN_DEADLINE_MS: '30000', UTILITY_API_IDLE_GRACE_MS: '0' } }));
    expect(config.shutdown).to.deep.equal({ drainDeadlineMs: 30_000, idleGraceMs: 0 });
    expect(errorsOf({ UTILITY_API_DRAIN_DEADLINE_MS: '0', UTILITY_API_IDLE_GRACE_MS: '-1' })).to.deep.equal([
      'Invalid setting shutdown.drainDeadlineMs (from env UTILITY_API_DRAIN_DEADLINE_MS): expected an integer from 100 to 600000, got 0',
      'Invalid setting shutdown.idleGraceMs (from env UTILITY_API_IDLE_GRACE_MS): expected an integer from 0 to 60000, got -1',
    ]);
  });

  it('takes the DNS servers, the RDAP bootstrap file and the WHOIS server from the environment, and refuses a DNS server that is no IP address', () => {
    const defaults = expectRight(loadConfig({ env: {} })).whois;
    expect(defaults).to.deep.include({ dnsServers: [], dnsTimeoutMs: 3000, rdapBootstrapUrl: 'https://data.iana.org/rdap/dns.json', whoisServer: 'whois.iana.org:43', registrationTtlMs: 3_600_000 });
    const set = expectRight(
      loadConfig({ env: { UTILITY_API_DNS_SERVERS: '192.0.2.53, 127.0.0.1:5353,[2001:db8::53]:53', UTILITY_API_RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:8080/dns.json', UTILITY_API_WHOIS_SERVER: 'whois.example:4343' } }),
    ).whois;
    expect(set).to.deep.include({ dnsServers: ['192.0.2.53', '127.0.0.1:5353', '[2001:db8::53]:53'], rdapBootstrapUrl: 'http://127.0.0.1:8080/dns.json', whoisServer: 'whois.example:4343' });
    const [line] = errorsOf({ UTILITY_API_DNS_SERVERS: 'dns.example' });
    expect(line).to.equal('Invalid setting whois.dnsServers (from env UTILITY_API_DNS_SERVERS): expected an IP address, optionally with :port ([v6]:port for IPv6), got "dns.example"');
    expect(errorsOf({ UTILITY_API_WHOIS_SERVER: 'whois.example:43/x', UTILITY_API_RDAP_BOOTSTRAP_URL: 'ftp://x' })).to.have.length(2);
  });

  it('refuses production without a key, and postgres without a URL', () => {
    expect(errorsOf({ NODE_ENV: 'production' })[0]).to.match(/^Missing setting encryption.key: set UTILITY_API_ENCRYPTION_KEY/);
    expect(errorsOf({ UTILITY_API_STORAGE: 'postgres' })[0]).to.match(/database.url/);
  });
});
