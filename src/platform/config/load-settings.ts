import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { EnvironmentVariable, SettingsSection } from './codecs.js';
import { PLATFORM_ENVIRONMENT, platformSettingsCodec, type PlatformSettings } from './platform-settings.js';

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

export interface LoadSettingsOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where default.json and <NODE_ENV>.json are. */
  readonly configDir: string;
  /** Settings laid over everything else, for tests and tools that build their own graph. */
  readonly overrides?: Json;
  /** The permission families a feature switch may name (`features.disabled`). */
  readonly permissionFamilies: readonly string[];
}

/** Every environment variable read: the platform's, then each section's under its key. */
export const environmentOf = (sections: readonly SettingsSection[]): readonly EnvironmentVariable[] => [
  ...PLATFORM_ENVIRONMENT,
  ...sections.flatMap(({ key, environment }) =>
    environment.map((variable) => ({ ...variable, path: `${key}.${variable.path}` })),
  ),
];

/**
 * The platform's settings and the sections' (each family's): their defaults, then default.json,
 * then <NODE_ENV>.json, then environment variables, decoded. On failure: one line per bad
 * setting, naming it and what is wrong (never a secret value).
 */
export function loadSettings<Settings extends PlatformSettings>(
  sections: readonly SettingsSection[],
  options: LoadSettingsOptions,
): E.Either<string[], Settings> {
  const env = options.env ?? process.env;
  const dir = options.configDir;
  const base = readJson(`${dir}/default.json`, true);
  if (E.isLeft(base)) return E.left([base.left]);
  const nodeEnv = env.NODE_ENV?.trim();
  const forEnv = nodeEnv && /^[a-z0-9_-]+$/i.test(nodeEnv) ? readJson(`${dir}/${nodeEnv}.json`, false) : E.right({});
  if (E.isLeft(forEnv)) return E.left([forEnv.left]);

  // A copy: the environment is written into the merged tree, which must never reach the sections themselves.
  const defaults: Json = structuredClone(Object.fromEntries(sections.map(({ key, defaults }) => [key, defaults])));
  let merged = merge(merge(defaults, base.right), forEnv.right);
  const sources = new Map<string, string>();
  for (const variable of environmentOf(sections)) {
    const raw = env[variable.name];
    if (raw === undefined || raw === '') continue;
    setPath(merged, variable.path, variable.parse(raw));
    sources.set(variable.path, `env ${variable.name}`);
  }
  // A database URL alone is enough to say "use PostgreSQL"; an explicit storage setting still wins.
  if (env.DATABASE_URL && !env.UTILITY_API_STORAGE) setPath(merged, 'storage', 'postgres');
  if (options.overrides) merged = merge(merged, options.overrides);

  const codec = t.type({
    ...platformSettingsCodec(options.permissionFamilies).props,
    ...Object.fromEntries(sections.map(({ key, codec }) => [key, codec])),
  });
  const decoded = codec.decode(merged);
  if (E.isLeft(decoded)) return E.left(describe(decoded.left, sources));
  const settings = decoded.right as unknown as Settings & Record<string, unknown>;
  if (settings.storage === 'postgres' && settings.database.url === null) {
    return E.left(['Invalid setting database.url: storage "postgres" needs a connection string (env DATABASE_URL)']);
  }
  const context = { production: nodeEnv === 'production' };
  for (const section of sections) {
    const failures = section.check?.(settings[section.key], context) ?? [];
    if (failures.length > 0) return E.left([...failures]);
  }
  return E.right(settings);
}
