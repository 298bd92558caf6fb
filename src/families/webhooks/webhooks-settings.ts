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
  },
  environment: [
    { name: 'UTILITY_API_WEBHOOKS_TIMEOUT_MS', path: 'timeoutMs', parse: asInteger },
    { name: 'UTILITY_API_WEBHOOKS_RETRY_FOR_HOURS', path: 'retryForHours', parse: asInteger },
    { name: 'UTILITY_API_WEBHOOKS_DISABLE_AFTER_DAYS', path: 'disableAfterDays', parse: asInteger },
    { name: 'UTILITY_API_WEBHOOKS_ALLOW_HTTP', path: 'allowHttp', parse: asBoolean },
    { name: 'UTILITY_API_WEBHOOKS_DNS_SERVERS', path: 'dnsServers', parse: asList },
  ],
};
