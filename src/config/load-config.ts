import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { STANDARD_PASSWORD_COST } from '../families/users-and-tokens/domain/users/password.js';
import { AppConfig } from './config.js';

/** `config/` at the project root, found from this file both in `src/` and in `dist/`. */
export const CONFIG_DIR = fileURLToPath(new URL('../../config/', import.meta.url));

type Parse = (raw: string) => unknown;
const asString: Parse = (raw) => raw;
/** Numbers that do not parse stay strings, so the codec names the setting and the bad value. */
const asInteger: Parse = (raw) => (/^-?\d+$/.test(raw.trim()) ? Number(raw) : raw);
/** `true` or `false`; anything else stays a string for the codec to name. */
/** An integer, or `off`: null, no limit. */
const asIntegerOrOff: Parse = (raw) => (raw.trim() === 'off' ? null : asInteger(raw));
const asBoolean: Parse = (raw) => (raw.trim() === 'true' ? true : raw.trim() === 'false' ? false : raw);
const asList: Parse = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** Every environment variable the service reads, and the setting it overrides. */
export const ENVIRONMENT_VARIABLES: readonly { name: string; path: string; parse: Parse }[] = [
  { name: 'PORT', path: 'port', parse: asInteger },
  { name: 'HOST', path: 'host', parse: asString },
  { name: 'UTILITY_API_DATA_DIR', path: 'dataDir', parse: asString },
  { name: 'UTILITY_API_STORAGE', path: 'storage', parse: asString },
  { name: 'UTILITY_API_SQLITE_FILE', path: 'database.sqliteFile', parse: asString },
  { name: 'UTILITY_API_DATABASE_TIMEOUT_MS', path: 'database.timeoutMs', parse: asInteger },
  { name: 'DATABASE_URL', path: 'database.url', parse: asString },
  { name: 'UTILITY_API_SQLITE_SYNCHRONOUS', path: 'database.sqliteSynchronous', parse: asString },
  { name: 'UTILITY_API_ENCRYPTION_KEY', path: 'encryption.key', parse: asString },
  { name: 'UTILITY_API_PREVIOUS_ENCRYPTION_KEYS', path: 'encryption.previousKeys', parse: asList },
  { name: 'UTILITY_API_MAX_DATA_BYTES', path: 'encryption.maxPlaintextBytes', parse: asInteger },
  { name: 'UTILITY_API_TOKEN_CACHE_TTL_MS', path: 'auth.verifiedTokenTtlMs', parse: asInteger },
  { name: 'UTILITY_API_TOKEN_USAGE_FLUSH_MS', path: 'auth.usageFlushIntervalMs', parse: asInteger },
  { name: 'UTILITY_API_SCRYPT_COST', path: 'auth.passwordCost', parse: asInteger },
  { name: 'UTILITY_API_LOGIN_FAILURES_PER_ADDRESS', path: 'auth.loginThrottle.perAddress', parse: asInteger },
  { name: 'UTILITY_API_MAX_TOKENS_PER_USER', path: 'auth.maxTokensPerUser', parse: asInteger },
  { name: 'UTILITY_API_MAX_HEADER_BYTES', path: 'http.maxHeaderBytes', parse: asInteger },
  { name: 'UTILITY_API_MAX_BODY_BYTES', path: 'http.maxBodyBytes', parse: asInteger },
  { name: 'UTILITY_API_HEADERS_TIMEOUT_MS', path: 'http.headersTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_BODY_TIMEOUT_MS', path: 'http.bodyTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_KEEP_ALIVE_TIMEOUT_MS', path: 'http.keepAliveTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_SOCKET_TIMEOUT_MS', path: 'http.socketTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_TRUSTED_PROXIES', path: 'http.trustedProxies', parse: asList },
  { name: 'LOG_LEVEL', path: 'log.level', parse: asString },
  { name: 'UTILITY_API_RATE_LIMIT', path: 'rateLimit.defaultPolicy', parse: asString },
  { name: 'REDIS_URL', path: 'redis.url', parse: asString },
  { name: 'UTILITY_API_REDIS_KEY_PREFIX', path: 'redis.keyPrefix', parse: asString },
  { name: 'UTILITY_API_REDIS_TIMEOUT_MS', path: 'redis.commandTimeoutMs', parse: asInteger },
  { name: 'UTILITY_API_DISABLED_FAMILIES', path: 'features.disabled', parse: asList },
  { name: 'UTILITY_API_CORS_ORIGINS', path: 'cors.origins', parse: asList },
  { name: 'UTILITY_API_CORS_MAX_AGE', path: 'cors.maxAgeSeconds', parse: asInteger },
  { name: 'UTILITY_API_HIVE_URL', path: 'hive.baseUrl', parse: asString },
  { name: 'UTILITY_API_DNS_SERVERS', path: 'whois.dnsServers', parse: asList },
  { name: 'UTILITY_API_RDAP_BOOTSTRAP_URL', path: 'whois.rdapBootstrapUrl', parse: asString },
  { name: 'UTILITY_API_WHOIS_SERVER', path: 'whois.whoisServer', parse: asString },
  { name: 'UTILITY_API_OUTBOUND_ALLOWED_NETWORKS', path: 'outbound.allowedNetworks', parse: asList },
  { name: 'UTILITY_API_OPEN_METEO_URL', path: 'weather.openMeteoUrl', parse: asString },
  { name: 'UTILITY_API_CHUCKNORRIS_URL', path: 'content.chuckNorrisUrl', parse: asString },
  { name: 'UTILITY_API_KANYE_URL', path: 'content.kanyeUrl', parse: asString },
  { name: 'UTILITY_API_RON_SWANSON_URL', path: 'content.ronSwansonUrl', parse: asString },
  { name: 'UTILITY_API_BARCODE_WORKERS', path: 'barcode.workers', parse: asInteger },
  { name: 'UTILITY_API_BARCODE_QUEUE', path: 'barcode.queue', parse: asInteger },
  { name: 'UTILITY_API_MAIL_FROM', path: 'mail.from', parse: asString },
  { name: 'UTILITY_API_SMTP_URL', path: 'mail.smtpUrl', parse: asString },
  { name: 'UTILITY_API_MAIL_WORKER', path: 'mail.worker', parse: asBoolean },
  { name: 'UTILITY_API_MAIL_MAX_ATTEMPTS', path: 'mail.maxAttempts', parse: asInteger },
  { name: 'UTILITY_API_MAIL_LEASE_MS', path: 'mail.leaseMs', parse: asInteger },
  { name: 'UTILITY_API_MAIL_MAX_RECIPIENTS_PER_HOUR', path: 'mail.maxRecipientsPerHour', parse: asIntegerOrOff },
  { name: 'UTILITY_API_MAIL_MAX_RECIPIENTS_PER_DAY', path: 'mail.maxRecipientsPerDay', parse: asIntegerOrOff },
  { name: 'UTILITY_API_DRAIN_DEADLINE_MS', path: 'shutdown.drainDeadlineMs', parse: asInteger },
  { name: 'UTILITY_API_IDLE_GRACE_MS', path: 'shutdown.idleGraceMs', parse: asInteger },
  { name: 'UTILITY_API_READINESS_GRACE_MS', path: 'shutdown.readinessGraceMs', parse: asInteger },
];

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(base: Json, override: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? merge(current, value) : value;
  }
  return out;
}

function setPath(target: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Json;
  }
  node[keys[keys.length - 1]!] = value;
}

function readJson(file: string, required: boolean): E.Either<string, Json> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return required ? E.left(`Cannot read config file ${file}`) : E.right({});
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? E.right(parsed) : E.left(`Config file ${file} must hold a JSON object`);
  } catch (error) {
    return E.left(`Config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function describe(errors: t.Errors, sources: Map<string, string>): string[] {
  // A union (`key: string | null`) fails once per member; the first member says what was meant.
  const firstPerPath = new Map<string, string>();
  for (const error of errors) {
    const path = error.context
      .map((c) => c.key)
      .filter((k) => k !== '' && !/^\d+$/.test(k))
      .join('.');
    const expected = error.context[error.context.length - 1]?.type.name ?? 'a valid value';
    const source = sources.get(path) ?? sources.get(path.split('.').slice(0, -1).join('.'));
    const where = source ? ` (from ${source})` : '';
    // Keys and URLs (which may carry a password, as an SMTP URL does) are never echoed.
    const shown = /key|url/i.test(path) ? '' : `, got ${JSON.stringify(error.value)}`;
    if (!firstPerPath.has(path))
      firstPerPath.set(path, `Invalid setting ${path}${where}: expected ${expected}${shown}`);
  }
  return [...firstPerPath.values()];
}

export interface LoadConfigOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly configDir?: string;
  /** Settings laid over everything else, for tests and tools that build their own graph. */
  readonly overrides?: Json;
}

/**
 * default.json, then <NODE_ENV>.json, then environment variables, decoded into AppConfig.
 * On failure: one line per bad setting, naming it and what is wrong (never a secret value).
 */
export function loadConfig(options: LoadConfigOptions = {}): E.Either<string[], AppConfig> {
  const env = options.env ?? process.env;
  const dir = options.configDir ?? CONFIG_DIR;
  const base = readJson(`${dir}/default.json`, true);
  if (E.isLeft(base)) return E.left([base.left]);
  const nodeEnv = env.NODE_ENV?.trim();
  const forEnv = nodeEnv && /^[a-z0-9_-]+$/i.test(nodeEnv) ? readJson(`${dir}/${nodeEnv}.json`, false) : E.right({});
  if (E.isLeft(forEnv)) return E.left([forEnv.left]);

  let merged = merge(base.right, forEnv.right);
  const sources = new Map<string, string>();
  for (const variable of ENVIRONMENT_VARIABLES) {
    const raw = env[variable.name];
    if (raw === undefined || raw === '') continue;
    setPath(merged, variable.path, variable.parse(raw));
    sources.set(variable.path, `env ${variable.name}`);
  }
  // A database URL alone is enough to say "use PostgreSQL"; an explicit storage setting still wins.
  if (env.DATABASE_URL && !env.UTILITY_API_STORAGE) setPath(merged, 'storage', 'postgres');
  if (options.overrides) merged = merge(merged, options.overrides);

  const decoded = AppConfig.decode(merged);
  if (E.isLeft(decoded)) return E.left(describe(decoded.left, sources));
  const config = decoded.right;
  if (config.storage === 'postgres' && config.database.url === null) {
    return E.left(['Invalid setting database.url: storage "postgres" needs a connection string (env DATABASE_URL)']);
  }
  if (config.mail.retryMaxMs < config.mail.retryBaseMs) {
    return E.left([
      `Invalid setting mail.retryMaxMs: expected at least mail.retryBaseMs (${config.mail.retryBaseMs}), got ${config.mail.retryMaxMs}`,
    ]);
  }
  if (nodeEnv === 'production' && config.encryption.key === null) {
    return E.left([
      'Missing setting encryption.key: set UTILITY_API_ENCRYPTION_KEY to base64 of 32 random bytes (NODE_ENV=production never generates one)',
    ]);
  }
  if (nodeEnv === 'production' && config.auth.passwordCost < STANDARD_PASSWORD_COST) {
    return E.left([
      `Invalid setting auth.passwordCost: NODE_ENV=production hashes passwords at scrypt cost ${STANDARD_PASSWORD_COST} or more (env UTILITY_API_SCRYPT_COST)`,
    ]);
  }
  return E.right(config);
}
