import { isIP } from 'node:net';
import * as t from 'io-ts';
import ipaddr from 'ipaddr.js';

/** A codec for values that are already the right JS type and pass a check; `name` reads as "expected <name>". */
export const checked = <A>(name: string, is: (u: unknown) => u is A) =>
  new t.Type<A, A, unknown>(name, is, (u, c) => (is(u) ? t.success(u) : t.failure(u, c)), t.identity);

export const intInRange = (min: number, max: number) =>
  checked(
    `an integer from ${min} to ${max}`,
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max,
  );

/** A network in CIDR notation, written as its first address (`10.0.0.0/8`, not `10.0.0.1/8`), IPv4 in four decimal parts. */
export const Network = checked(
  'a network such as 10.0.0.0/8 or fd00::/8 (CIDR, its first address)',
  (u): u is string => {
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
  },
);

/** A DNS server as Node's resolver takes it: an IP address, optionally with a port (`[v6]:port` for IPv6). */
export const DnsServer = checked('an IP address, optionally with :port ([v6]:port for IPv6)', (u): u is string => {
  if (typeof u !== 'string') return false;
  const match = /^(?:\[([0-9a-f:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$|^([0-9a-f:.]+)$/i.exec(u);
  if (!match) return false;
  const port = match[3] === undefined ? 53 : Number(match[3]);
  return isIP(match[1] ?? match[2] ?? match[4]!) !== 0 && port >= 1 && port <= 65_535;
});

export const httpUrl = checked(
  'an http(s) URL',
  (u): u is string => typeof u === 'string' && URL.canParse(u) && /^https?:$/.test(new URL(u).protocol),
);
/** An upstream's base URL, or `off`: not asked at all. */
export const httpUrlOrOff = checked('an http(s) URL or "off"', (u): u is string => u === 'off' || httpUrl.is(u));

export const trueOrFalse = checked('true or false', (u): u is boolean => typeof u === 'boolean');

export const nonEmptyString = checked(
  'a non-empty string',
  (u): u is string => typeof u === 'string' && u.trim().length > 0,
);

/**
 * How a family calls an upstream over the upstream client: the deadline of every call (body
 * included); how long to leave the upstream alone after its 429 without Retry-After, or after a
 * failure with an answer to serve meanwhile; how long a failure with nothing cached is remembered,
 * so that a dead upstream costs one deadline; how long its host name is resolved for.
 */
export const upstreamCallSettings = {
  timeoutMs: intInRange(100, 60_000),
  backoffMs: intInRange(0, 3_600_000),
  failureTtlMs: intInRange(0, 3_600_000),
  hostTtlMs: intInRange(0, 86_400_000),
};
export type UpstreamCallSettings = t.TypeOf<t.TypeC<typeof upstreamCallSettings>>;

/** How an environment variable's text becomes a setting's value, before the codec checks it. */
export type Parse = (raw: string) => unknown;
export const asString: Parse = (raw) => raw;
/** Numbers that do not parse stay strings, so the codec names the setting and the bad value. */
export const asInteger: Parse = (raw) => (/^-?\d+$/.test(raw.trim()) ? Number(raw) : raw);
/** An integer, or `off`: null, no limit. */
export const asIntegerOrOff: Parse = (raw) => (raw.trim() === 'off' ? null : asInteger(raw));
/** `true` or `false`; anything else stays a string for the codec to name. */
export const asBoolean: Parse = (raw) => (raw.trim() === 'true' ? true : raw.trim() === 'false' ? false : raw);
/** JSON text; text that does not parse stays a string, so the codec names the setting and the bad value. */
export const asJson: Parse = (raw) => {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
};
export const asList: Parse = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** An environment variable and the setting it overrides (`path`, below its section for a family's). */
export interface EnvironmentVariable {
  readonly name: string;
  readonly path: string;
  readonly parse: Parse;
}

/** What a start-up check of settings is told besides them. */
export interface SettingsContext {
  /** NODE_ENV is `production`. */
  readonly production: boolean;
}

/**
 * One section of the settings files that a family owns: its name there, the codec that checks it,
 * its defaults (what config/default.json does not say), the environment variables that override
 * it, and the checks across its settings that a codec cannot make (each failure one line).
 */
export interface SettingsSection<Key extends string = string, Settings = unknown> {
  readonly key: Key;
  readonly codec: t.Type<Settings, unknown, unknown>;
  readonly defaults: Settings;
  readonly environment: readonly EnvironmentVariable[];
  readonly check?: (settings: Settings, context: SettingsContext) => readonly string[];
}
