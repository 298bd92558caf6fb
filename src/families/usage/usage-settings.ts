import * as t from 'io-ts';
import { asInteger, intInRange, type SettingsSection } from '../../platform/config/codecs.js';

export const UsageSettingsCodec = t.type({
  /** Days hourly counts are kept before they are summed into days (days are kept). */
  retentionDays: intInRange(1, 3650),
  /** How often the counts of this instance are written to the store. */
  flushIntervalMs: intInRange(100, 3_600_000),
});
export type UsageSettings = t.TypeOf<typeof UsageSettingsCodec>;

/** The `usage` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const usageSettings: SettingsSection<'usage', UsageSettings> = {
  key: 'usage',
  codec: UsageSettingsCodec,
  defaults: {
    retentionDays: 90,
    flushIntervalMs: 10000,
  },
  environment: [
    { name: 'UTILITY_API_USAGE_RETENTION_DAYS', path: 'retentionDays', parse: asInteger },
    { name: 'UTILITY_API_USAGE_FLUSH_MS', path: 'flushIntervalMs', parse: asInteger },
  ],
};
