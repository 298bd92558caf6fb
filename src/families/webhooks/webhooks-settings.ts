import * as t from 'io-ts';
import {
  asBoolean,
  asInteger,
  asList,
  DnsServer,
  intInRange,
  trueOrFalse,
  type SettingsSection,
} from '../../platform/config/codecs.js';

export const WebhooksSettingsCodec = t.type({
  /** How long one delivery attempt may take, connection included; past it the attempt failed and is retried. */
  timeoutMs: intInRange(100, 60_000),
  /** How long a delivery that keeps failing for a passing reason is retried before it is given up. */
  retryForHours: intInRange(1, 168),
  /** An endpoint that has failed every attempt for this many days is disabled and its owner mailed. */
  disableAfterDays: intInRange(1, 365),
  /** Whether endpoints may be `http:` URLs; `https:` only when false. */
  allowHttp: trueOrFalse,
  /** The resolvers that endpoints' hosts are looked up with; none means the system's. */
  dnsServers: t.array(DnsServer),
  /** Whether this process hands events on and delivers them (the CLI never does). */
  worker: trueOrFalse,
  /** How often an idle worker looks for events and due deliveries. */
  pollIntervalMs: intInRange(10, 3_600_000),
  /** The wait after a first failed attempt, doubled after each further one (with jitter), up to retryMaxMs. */
  retryBaseMs: intInRange(1, 86_400_000),
  retryMaxMs: intInRange(1, 86_400_000),
});
export type WebhooksSettings = t.TypeOf<typeof WebhooksSettingsCodec>;

/** The `webhooks` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const webhooksSettings: SettingsSection<'webhooks', WebhooksSettings> = {
  key: 'webhooks',
  codec: WebhooksSettingsCodec,
  defaults: {
    timeoutMs: 10_000,
    retryForHours: 24,
    disableAfterDays: 5,
    allowHttp: false,
    dnsServers: [],
    worker: true,
    pollIntervalMs: 1000,
    retryBaseMs: 30_000,
    retryMaxMs: 3_600_000,
  },
  environment: [
    { name: 'UTILITY_API_WEBHOOKS_TIMEOUT_MS', path: 'timeoutMs', parse: asInteger },
    { name: 'UTILITY_API_WEBHOOKS_RETRY_FOR_HOURS', path: 'retryForHours', parse: asInteger },
    { name: 'UTILITY_API_WEBHOOKS_DISABLE_AFTER_DAYS', path: 'disableAfterDays', parse: asInteger },
    { name: 'UTILITY_API_WEBHOOKS_ALLOW_HTTP', path: 'allowHttp', parse: asBoolean },
    { name: 'UTILITY_API_WEBHOOKS_DNS_SERVERS', path: 'dnsServers', parse: asList },
    { name: 'UTILITY_API_WEBHOOKS_WORKER', path: 'worker', parse: asBoolean },
  ],
  check: ({ retryBaseMs, retryMaxMs }) =>
    retryMaxMs < retryBaseMs
      ? [
          `Invalid setting webhooks.retryMaxMs: expected at least webhooks.retryBaseMs (${retryBaseMs}), got ${retryMaxMs}`,
        ]
      : [],
};
