import * as t from 'io-ts';
import { parseRateLimit, type RateLimit } from '../../domain/identity/rate-limit.js';
import {
  asInteger,
  asJson,
  asList,
  asString,
  checked,
  intInRange,
  Network,
  nonEmptyString,
  type EnvironmentVariable,
} from './codecs.js';

/** The most one operation may cost against a quota. */
const MAX_QUOTA_COST = 1_000_000;

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

const redisUrl = checked(
  'a redis:// or rediss:// URL',
  (u): u is string => typeof u === 'string' && URL.canParse(u) && /^rediss?:$/.test(new URL(u).protocol),
);

export const Storage = t.keyof({ memory: null, sqlite: null, postgres: null }, '"memory", "sqlite" or "postgres"');

export const LogLevel = t.keyof(
  { fatal: null, error: null, warn: null, info: null, debug: null, trace: null, silent: null },
  'one of fatal, error, warn, info, debug, trace, silent',
);

/** What `features.disabled` names to turn the console (`/console`) off, beside the permission families. */
export const CONSOLE_SWITCH = 'Console';

/** The settings of the platform: the process, storage, HTTP, logging, limits, Redis, switches and stopping. */
/** The platform's settings, with the permission families a feature switch may name. */
export const platformSettingsCodec = (permissionFamilies: readonly string[]) => {
  /** A permission, as routes name it (`Barcode::Generate`), of a family this installation has. */
  const isPermissionName = (u: string): boolean =>
    /^[A-Z][A-Za-z]*::[A-Z][A-Za-z]*$/.test(u) && permissionFamilies.includes(u.split('::')[0]!);
  const isCost = (u: unknown): boolean => Number.isInteger(u) && (u as number) >= 1 && (u as number) <= MAX_QUOTA_COST;
  /** Checked whole: io-ts's records drop the keys their domain refuses rather than refuse them. */
  const quotaCosts = checked(
    `an object of permissions of the families (such as "Barcode::Generate") to whole numbers from 1 to ${MAX_QUOTA_COST}`,
    (u): u is Record<string, number> =>
      typeof u === 'object' &&
      u !== null &&
      !Array.isArray(u) &&
      Object.entries(u).every(([permission, cost]) => isPermissionName(permission) && isCost(cost)),
  );
  /** What a feature switch turns off: a permission family, as permissions name it (`Weather` for `Weather::Current`), or the console. */
  const switchable = [...permissionFamilies, CONSOLE_SWITCH];
  const switchName = checked(
    `one of ${switchable.join(', ')}`,
    (u): u is string => typeof u === 'string' && switchable.includes(u),
  );
  return t.type({
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
    quota: t.type({
      /**
       * What a request costs against a token's or a user's quota, by the permission its operation
       * needs (`{"Barcode::Generate": 5}`); every operation not named costs 1.
       */
      costs: quotaCosts,
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
      /** Permission families whose endpoints answer 423 code 23 on this installation (`Weather`, `Mail`), and `Console`. */
      disabled: t.array(switchName),
    }),
    cors: t.type({
      /** The origins whose pages may call the API from a browser; none by default. */
      origins: t.array(CorsOrigin),
      /** How long a browser may reuse a preflight's answer. */
      maxAgeSeconds: intInRange(0, 86_400),
    }),
    outbound: t.type({
      /**
       * Networks that connections an outside party can aim (WHOIS referrals, RDAP registries and
       * redirects) may reach although they are not public: loopback, private, link-local, ...
       * None by default; the servers configured here (whois.whoisServer, ...) are trusted anyway.
       */
      allowedNetworks: t.array(Network),
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
};
export const PlatformSettings = platformSettingsCodec([]);
export type PlatformSettings = t.TypeOf<typeof PlatformSettings>;

/** Every environment variable the platform reads, and the setting it overrides. */
export const PLATFORM_ENVIRONMENT: readonly EnvironmentVariable[] = [
  { name: 'PORT', path: 'port', parse: asInteger },
  { name: 'HOST', path: 'host', parse: asString },
  { name: 'UTILITY_API_DATA_DIR', path: 'dataDir', parse: asString },
  { name: 'UTILITY_API_STORAGE', path: 'storage', parse: asString },
  { name: 'UTILITY_API_SQLITE_FILE', path: 'database.sqliteFile', parse: asString },
  { name: 'UTILITY_API_DATABASE_TIMEOUT_MS', path: 'database.timeoutMs', parse: asInteger },
  { name: 'DATABASE_URL', path: 'database.url', parse: asString },
  { name: 'UTILITY_API_SQLITE_SYNCHRONOUS', path: 'database.sqliteSynchronous', parse: asString },
  { name: 'UTILITY_API_MAX_HEADER_BYTES', path: 'http.maxHeaderBytes', parse: asInteger },
  { name: 'UTILITY_API_MAX_BODY_BYTES', path: 'http.maxBodyBytes', parse: asInteger },
  { name: 'UTILITY_API_HEADERS_TIMEOUT_MS', path: 'http.headersTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_BODY_TIMEOUT_MS', path: 'http.bodyTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_KEEP_ALIVE_TIMEOUT_MS', path: 'http.keepAliveTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_SOCKET_TIMEOUT_MS', path: 'http.socketTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_TRUSTED_PROXIES', path: 'http.trustedProxies', parse: asList },
  { name: 'LOG_LEVEL', path: 'log.level', parse: asString },
  { name: 'UTILITY_API_RATE_LIMIT', path: 'rateLimit.defaultPolicy', parse: asString },
  { name: 'UTILITY_API_QUOTA_COSTS', path: 'quota.costs', parse: asJson },
  { name: 'REDIS_URL', path: 'redis.url', parse: asString },
  { name: 'UTILITY_API_REDIS_KEY_PREFIX', path: 'redis.keyPrefix', parse: asString },
  { name: 'UTILITY_API_REDIS_TIMEOUT_MS', path: 'redis.commandTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_DISABLED_FAMILIES', path: 'features.disabled', parse: asList },
  { name: 'UTILITY_API_CORS_ORIGINS', path: 'cors.origins', parse: asList },
  { name: 'UTILITY_API_CORS_MAX_AGE', path: 'cors.maxAgeSeconds', parse: asInteger },
  { name: 'UTILITY_API_OUTBOUND_ALLOWED_NETWORKS', path: 'outbound.allowedNetworks', parse: asList },
  { name: 'UTILITY_API_DRAIN_DEADLINE_MS', path: 'shutdown.drainDeadlineMs', parse: asInteger },
  { name: 'UTILITY_API_IDLE_GRACE_MS', path: 'shutdown.idleGraceMs', parse: asInteger },
  { name: 'UTILITY_API_READINESS_GRACE_MS', path: 'shutdown.readinessGraceMs', parse: asInteger },
];

/** The policy for tokens without a limit of their own; null when the setting is `off`. */
export const defaultRateLimitOf = (settings: PlatformSettings): RateLimit | null =>
  parseRateLimit(settings.rateLimit.defaultPolicy) ?? null;
