import { isIP } from 'node:net';
import * as t from 'io-ts';
import ipaddr from 'ipaddr.js';
import { HIGHEST_PASSWORD_COST, LOWEST_PASSWORD_COST } from '../families/users-and-tokens/domain/users/password.js';
import { isAddress } from '../families/mail/domain/addresses.js';
import { MAX_RECIPIENTS } from '../families/mail/domain/message.js';
import { parseRateLimit, type RateLimit } from '../domain/identity/rate-limit.js';
import { PERMISSION_FAMILIES } from '../domain/permissions.js';

/** A codec for values that are already the right JS type and pass a check; `name` reads as "expected <name>". */
const checked = <A>(name: string, is: (u: unknown) => u is A) =>
  new t.Type<A, A, unknown>(name, is, (u, c) => (is(u) ? t.success(u) : t.failure(u, c)), t.identity);

const intInRange = (min: number, max: number) =>
  checked(
    `an integer from ${min} to ${max}`,
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max,
  );

/** A DNS server as Node's resolver takes it: an IP address, optionally with a port (`[v6]:port` for IPv6). */
const DnsServer = checked('an IP address, optionally with :port ([v6]:port for IPv6)', (u): u is string => {
  if (typeof u !== 'string') return false;
  const match = /^(?:\[([0-9a-f:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$|^([0-9a-f:.]+)$/i.exec(u);
  if (!match) return false;
  const port = match[3] === undefined ? 53 : Number(match[3]);
  return isIP(match[1] ?? match[2] ?? match[4]!) !== 0 && port >= 1 && port <= 65_535;
});

/** A port-43 server: a host name or IP address, optionally with a port. */
const WhoisServer = checked(
  'a host or host:port',
  (u): u is string => typeof u === 'string' && /^(?:\[[0-9a-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/i.test(u),
);

/** A network in CIDR notation, written as its first address (`10.0.0.0/8`, not `10.0.0.1/8`), IPv4 in four decimal parts. */
const Network = checked('a network such as 10.0.0.0/8 or fd00::/8 (CIDR, its first address)', (u): u is string => {
  if (typeof u !== 'string') return false;
  const [address, bits] = u.split('/');
  if (
    address === undefined ||
    isIP(address) === 0 ||
    bits === undefined ||
    !/^\d{1,3}$/.test(bits) ||
    !ipaddr.isValidCIDR(u)
  )
    return false;
  const first = isIP(address) === 4 ? ipaddr.IPv4.networkAddressFromCIDR(u) : ipaddr.IPv6.networkAddressFromCIDR(u);
  return first.toString() === ipaddr.parse(address).toString();
});

const httpUrl = checked(
  'an http(s) URL',
  (u): u is string => typeof u === 'string' && URL.canParse(u) && /^https?:$/.test(new URL(u).protocol),
);
/** An upstream's base URL, or `off`: not asked at all. */
const httpUrlOrOff = checked('an http(s) URL or "off"', (u): u is string => u === 'off' || httpUrl.is(u));

const trueOrFalse = checked('true or false', (u): u is boolean => typeof u === 'boolean');

const nonEmptyString = checked('a non-empty string', (u): u is string => typeof u === 'string' && u.trim().length > 0);

/** Where mail goes: an SMTP server's URL (`smtp://` or `smtps://`), or `memory` (kept in the process, for tests). */
const SmtpUrlOrMemory = checked('an smtp:// or smtps:// URL, or "memory"', (u): u is string => {
  if (u === 'memory') return true;
  if (typeof u !== 'string' || !URL.canParse(u)) return false;
  const url = new URL(u);
  return /^smtps?:$/.test(url.protocol) && url.hostname !== '';
});

/** A number of recipients a user may send to in a window, or null for no limit. */
const RecipientLimit = checked(
  `an integer from ${MAX_RECIPIENTS} to 100000000, or null ("off" in the environment) for no limit`,
  (u): u is number | null =>
    u === null || (typeof u === 'number' && Number.isInteger(u) && u >= MAX_RECIPIENTS && u <= 100_000_000),
);

const EmailAddress = checked(
  'an email address such as noreply@example.com',
  (u): u is string => typeof u === 'string' && isAddress(u),
);
/** A rate limit policy as `<requests>/<seconds>` (`1000/10`), or `off`. */
const RateLimitPolicy = checked(
  '"<requests>/<seconds>" such as "1000/10" (at most 1000000000 requests, 86400 s), or "off"',
  (u): u is string => u === 'off' || (typeof u === 'string' && parseRateLimit(u) !== undefined),
);

/** A page's origin as browsers send it, `scheme://host[:port]`, or `*` for any. */
const CorsOrigin = checked(
  'an origin such as "https://app.example.com" (scheme://host[:port], no path), or "*"',
  (u): u is string => u === '*' || (typeof u === 'string' && URL.canParse(u) && new URL(u).origin === u),
);

/** A permission family, as permissions name it (`Weather` for `Weather::Current`). */
const PermissionFamily = checked(
  `one of ${PERMISSION_FAMILIES.join(', ')}`,
  (u): u is string => typeof u === 'string' && PERMISSION_FAMILIES.includes(u),
);

const redisUrl = checked(
  'a redis:// or rediss:// URL',
  (u): u is string => typeof u === 'string' && URL.canParse(u) && /^rediss?:$/.test(new URL(u).protocol),
);

/** base64 (or base64url) of exactly 32 bytes: an AES-256 key. */
export const EncryptionKey = checked(
  'base64 of exactly 32 bytes',
  (u): u is string =>
    typeof u === 'string' && /^[A-Za-z0-9+/_-]{43}=?$/.test(u) && Buffer.from(u, 'base64').length === 32,
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
    /** The longest a request waits on the database (a connection, a lock, an answer) before 503/29. */
    timeoutMs: intInRange(100, 60_000),
    /**
     * SQLite's `synchronous`: `full` flushes the disk at every commit, `normal` (with the WAL) at
     * checkpoints only, so a commit survives the process being killed but not the machine losing power.
     */
    sqliteSynchronous: t.keyof({ full: null, normal: null }, '"full" or "normal"'),
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
    /** log2 of scrypt's N for new password hashes; production refuses less than the standard 15. */
    passwordCost: intInRange(LOWEST_PASSWORD_COST, HIGHEST_PASSWORD_COST),
    /** Unexpired tokens one user may hold, whoever issues them (a password login, another user, the CLI); beyond it 409/26. */
    maxTokensPerUser: intInRange(1, 1_000_000),
    loginThrottle: t.type({
      /**
       * Failed logins one client address may make over all accounts in 15 minutes before it waits;
       * an account tried from one address waits after 5, and one tried from many is slowed down.
       */
      perAddress: intInRange(5, 1_000_000),
    }),
  }),
  http: t.type({
    /** Node's limit on the request line plus headers; beyond it the client gets 431/27. */
    maxHeaderBytes: intInRange(1024, 1_048_576),
    /** The largest JSON body accepted; beyond it the client gets 400/11. */
    maxBodyBytes: intInRange(256, 10_485_760),
    /**
     * How long the request line and headers may take to arrive from their first byte; past it the
     * client gets 408/9 and the connection is closed (Node's headersTimeout, 60 s by default).
     */
    headersTimeoutMs: intInRange(100, 600_000),
    /** How long a body may take to arrive once the headers have; past it the client gets 408/9 and the connection is closed. */
    bodyTimeoutMs: intInRange(100, 600_000),
    /** How long a kept-alive connection with no request in progress waits for the next one (Node's keepAliveTimeout). */
    keepAliveTimeoutMs: intInRange(100, 600_000),
    /**
     * How long a connection with a request in progress may go without a byte read or sent (an
     * answer its client does not read) before it is closed.
     */
    socketTimeoutMs: intInRange(1_000, 3_600_000),
    /** The proxies' networks whose X-Forwarded-For names the client; from any other peer it is ignored. */
    trustedProxies: t.readonlyArray(Network),
  }),
  log: t.type({ level: LogLevel }),
  rateLimit: t.type({
    /** Requests per token per window unless the token has a limit of its own; `off`: such tokens are not limited. */
    defaultPolicy: RateLimitPolicy,
  }),
  redis: t.type({
    /** Where instances share their rate-limit and login-failure counters; null: each counts in its own memory. */
    url: t.union([redisUrl, t.null]),
    /** Put before every key, so that installations (or test runs) can share one Redis. */
    keyPrefix: t.string,
    /** How long one command may take before the in-memory insurance limiter decides instead. */
    commandTimeoutMs: intInRange(10, 10_000),
  }),
  features: t.type({
    /** Permission families whose endpoints answer 423 code 23 on this installation (`Weather`, `Mail`). */
    disabled: t.array(PermissionFamily),
  }),
  cors: t.type({
    /** The origins whose pages may call the API from a browser; none by default. */
    origins: t.array(CorsOrigin),
    /** How long a browser may reuse a preflight's answer. */
    maxAgeSeconds: intInRange(0, 86_400),
  }),
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
  outbound: t.type({
    /**
     * Networks that connections an outside party can aim (WHOIS referrals, RDAP registries and
     * redirects) may reach although they are not public: loopback, private, link-local, ...
     * None by default; the servers configured here (whois.whoisServer, ...) are trusted anyway.
     */
    allowedNetworks: t.array(Network),
  }),
  weather: t.type({
    /** Open-Meteo's forecast API, or `off`: the weather endpoints then answer 423. */
    openMeteoUrl: httpUrlOrOff,
    /** Deadline of every call, body included. */
    timeoutMs: intInRange(100, 60_000),
    /** How long the conditions now, and a forecast, are kept per rounded point and options. */
    currentTtlMs: intInRange(0, 86_400_000),
    forecastTtlMs: intInRange(0, 86_400_000),
    /** How many answers are kept at most. */
    cacheEntries: intInRange(1, 1_000_000),
    /** How long to leave Open-Meteo alone after its 429 when it gives no Retry-After, or after a failure with an answer to serve meanwhile. */
    backoffMs: intInRange(0, 3_600_000),
    /** How long a failure with nothing cached is remembered, so a dead Open-Meteo costs one deadline. */
    failureTtlMs: intInRange(0, 3_600_000),
    /** How long Open-Meteo's host name is resolved for. */
    hostTtlMs: intInRange(0, 86_400_000),
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
    /** Worker threads drawing bwip-js barcodes at once; null for one less than the cores (at least 1), so the event loop keeps a core. */
    workers: t.union([intInRange(1, 64), t.null]),
    /** Drawings waiting for a worker; one more is refused with 503/29 and Retry-After. */
    queue: intInRange(0, 10_000),
  }),
  mail: t.type({
    /** The address every message is sent from; a caller chooses only the display name. */
    from: EmailAddress,
    /** Where messages go: an SMTP server, `memory`, or null for `.eml` files under `<dataDir>/mail`. */
    smtpUrl: t.union([SmtpUrlOrMemory, t.null]),
    /** Whether this process delivers the outbox (the CLI never does). */
    worker: trueOrFalse,
    /** Attempts before a message that keeps failing for a passing reason is marked failed. */
    maxAttempts: intInRange(1, 100),
    /** The wait after a first failed attempt, doubled after each further one (with jitter), up to retryMaxMs. */
    retryBaseMs: intInRange(1, 86_400_000),
    retryMaxMs: intInRange(1, 604_800_000),
    /**
     * How long a claimed message is a worker's alone. A quarter of it is the SMTP time-out, so a
     * send ends well within its lease; a worker that dies holding messages delays them this long.
     */
    leaseMs: intInRange(100, 3_600_000),
    /** How often an idle worker looks for due messages (one accepted by its own process wakes it at once). */
    pollIntervalMs: intInRange(10, 3_600_000),
    /** Connections kept open to the SMTP server; twice as many messages are in flight at once. */
    smtpConnections: intInRange(1, 100),
    /** The largest `content`, in UTF-8 bytes, as written and with its variables filled in. */
    maxContentBytes: intInRange(1024, 10_485_760),
    /**
     * Recipients (to, cc and bcc together) one user's messages may have in any hour, and in any
     * day, counted from the outbox across instances; beyond, 429/25 with Retry-After. At least
     * one message's most, so that every message fits once the window has passed; null for no limit
     * (nothing counted).
     */
    maxRecipientsPerHour: RecipientLimit,
    maxRecipientsPerDay: RecipientLimit,
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
    /**
     * How long a stop keeps serving, with `/readyz` already failing, before it stops accepting
     * connections: time for a load balancer to notice and send no more.
     */
    readinessGraceMs: intInRange(0, 60_000),
  }),
});

export type AppConfig = t.TypeOf<typeof AppConfig>;

/** The policy for tokens without a limit of their own; null when the setting is `off`. */
export const defaultRateLimitOf = (config: AppConfig): RateLimit | null =>
  parseRateLimit(config.rateLimit.defaultPolicy) ?? null;
