import { isIP } from 'node:net';
import * as t from 'io-ts';

/** A codec for values that are already the right JS type and pass a check; `name` reads as "expected <name>". */
const checked = <A>(name: string, is: (u: unknown) => u is A) =>
  new t.Type<A, A, unknown>(name, is, (u, c) => (is(u) ? t.success(u) : t.failure(u, c)), t.identity);

const intInRange = (min: number, max: number) =>
  checked(`an integer from ${min} to ${max}`, (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max);

/** A DNS server as Node's resolver takes it: an IP address, optionally with a port (`[v6]:port` for IPv6). */
const DnsServer = checked('an IP address, optionally with :port ([v6]:port for IPv6)', (u): u is string => {
  if (typeof u !== 'string') return false;
  const match = /^(?:\[([0-9a-f:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$|^([0-9a-f:.]+)$/i.exec(u);
  if (!match) return false;
  const port = match[3] === undefined ? 53 : Number(match[3]);
  return isIP(match[1] ?? match[2] ?? match[4]!) !== 0 && port >= 1 && port <= 65_535;
});

/** A port-43 server: a host name or IP address, optionally with a port. */
const WhoisServer = checked('a host or host:port', (u): u is string => typeof u === 'string' && /^(?:\[[0-9a-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/i.test(u));

const httpUrl = checked('an http(s) URL', (u): u is string => typeof u === 'string' && URL.canParse(u) && /^https?:$/.test(new URL(u).protocol));
/** An upstream's base URL, or `off`: not asked at all. */
const httpUrlOrOff = checked('an http(s) URL or "off"', (u): u is string => u === 'off' || httpUrl.is(u));

const nonEmptyString = checked('a non-empty string', (u): u is string => typeof u === 'string' && u.trim().length > 0);

/** base64 (or base64url) of exactly 32 bytes: an AES-256 key. */
export const EncryptionKey = checked(
  'base64 of exactly 32 bytes',
  (u): u is string => typeof u === 'string' && /^[A-Za-z0-9+/_-]{43}=?$/.test(u) && Buffer.from(u, 'base64').length === 32,
);


export const Storage = t.keyof({ memory: null, sqlite: null, postgres: null }, '"memory", "sqlite" or "postgres"');

export const LogLevel = t.keyof(
  { fatal: null, error: null, warn: null, info: null, debug: null, trace: null, silent: null },
  'one of fatal, error, warn, info, debug, trace, silent',
);

export const AppConfig = t.type({
  port: intInRange(0, 65535),
  host: nonEmptyString,
  /** Where the SQLite file and a generated key live, relative to the working directory. */
  dataDir: nonEmptyString,
  storage: Storage,
  database: t.type({
    /** SQLite file; null means `<dataDir>/utility-api.sqlite`. */
    sqliteFile: t.union([nonEmptyString, t.null]),
    /** PostgreSQL connection string, used when storage is "postgres". */
    url: t.union([nonEmptyString, t.null]),
  }),
  encryption: t.type({
    /** Current key; null outside production means "generate one into dataDir once". */
    key: t.union([EncryptionKey, t.null]),
    /** Older keys that can still decrypt after a rotation. */
    previousKeys: t.array(EncryptionKey),
    maxPlaintextBytes: intInRange(1, 1_048_576),
  }),
  auth: t.type({
    verifiedTokenTtlMs: intInRange(0, 3_600_000),
    /** How often counted token uses are written to the store. */
    usageFlushIntervalMs: intInRange(100, 3_600_000),
  }),
  http: t.type({
    /** Node's limit on the request line plus headers; beyond it the client gets 431/27. */
    maxHeaderBytes: intInRange(1024, 1_048_576),
    /** The largest JSON body accepted; beyond it the client gets 400/11. */
    maxBodyBytes: intInRange(256, 10_485_760),
  }),
  log: t.type({ level: LogLevel }),
  hive: t.type({
    /** The Hive's public API. */
    baseUrl: httpUrl,
    /** Deadline of every call, body included. */
    timeoutMs: intInRange(100, 60_000),
    mapsTtlMs: intInRange(0, 86_400_000),
    playerTtlMs: intInRange(0, 86_400_000),
    /** How many games and players are kept in cache at most. */
    cacheEntries: intInRange(1, 1_000_000),
    /** How long to leave The Hive alone after its 429 when it gives no Retry-After. */
    backoffMs: intInRange(0, 3_600_000),
    /** How long a failure with nothing cached is remembered, so a dead Hive costs one deadline. */
    failureTtlMs: intInRange(0, 3_600_000),
    /** How long The Hive's host name is resolved for. */
    hostTtlMs: intInRange(0, 86_400_000),
  }),
  whois: t.type({
    /** The resolvers asked for DNS records; none means the system's. */
    dnsServers: t.array(DnsServer),
    /** Deadline of one name's lookup, all record types together. */
    dnsTimeoutMs: intInRange(100, 60_000),
    /** IANA's RDAP bootstrap file for domains. */
    rdapBootstrapUrl: httpUrl,
    /** Where port-43 WHOIS questions start; its referrals lead to each TLD's server. */
    whoisServer: WhoisServer,
    /** Deadline of each RDAP call and of each WHOIS server asked. */
    registrationTimeoutMs: intInRange(100, 60_000),
    /** How long a registration is kept. */
    registrationTtlMs: intInRange(0, 86_400_000),
    /** How many names' records, and how many registrations, are kept at most. */
    cacheEntries: intInRange(1, 1_000_000),
  }),
  content: t.type({
    /** Each upstream of facts and quotes: its base URL, or `off` to answer only from the store. */
    chuckNorrisUrl: httpUrlOrOff,
    kanyeUrl: httpUrlOrOff,
    ronSwansonUrl: httpUrlOrOff,
    /** Deadline of every call, body included. */
    timeoutMs: intInRange(100, 60_000),
    /** How long to leave an upstream alone after its 429, or after a failure once it has answered before. */
    backoffMs: intInRange(0, 3_600_000),
    /** How long a failure of an upstream that never answered is remembered, so a dead one costs one deadline. */
    failureTtlMs: intInRange(0, 3_600_000),
    /** How long an upstream's host name is resolved for. */
    hostTtlMs: intInRange(0, 86_400_000),
    /** How long the stored facts and quotes random answers pick from are kept in memory; writes elsewhere show within it. */
    storeCacheTtlMs: intInRange(0, 3_600_000),
  }),
  barcode: t.type({
    /** Longest `content` accepted, in UTF-8 bytes; beyond it 400/7 (a 2 KB QR code takes ~0.5 s to encode). */
    maxContentBytes: intInRange(1, 8192),
    /** Largest PNG drawn, width × height; beyond it 400/7 (each pixel is 4 bytes while drawing). */
    maxPixels: intInRange(10_000, 67_108_864),
    /** Rendered images kept for repeated requests, in bytes; 0 turns the cache off. */
    cacheBytes: intInRange(0, 1_073_741_824),
  }),
  shutdown: t.type({
    /**
     * How long a stop (SIGTERM, SIGINT) may take to finish the requests it received, write token
     * use counts and close the database; past it the process exits 1, logging what it cut.
     */
    drainDeadlineMs: intInRange(100, 600_000),
    /**
     * How long a kept-alive connection with nothing in progress stays open once stopping, for the
     * request its client may be sending on it; 0 still waits for one look at what has arrived.
     */
    idleGraceMs: intInRange(0, 60_000),
  }),
});

export type AppConfig = t.TypeOf<typeof AppConfig>;
