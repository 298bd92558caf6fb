import * as t from 'io-ts';
import { asBoolean, asInteger, intInRange, trueOrFalse, type SettingsSection } from '../../platform/config/codecs.js';

export const UsageSettingsCodec = t.type({
  /** Days hourly counts are kept before they are summed into days (days are kept). */
  retentionDays: intInRange(1, 3650),
  /** How often the counts of this instance are written to the store. */
  flushIntervalMs: intInRange(100, 3_600_000),
  /** Whether this process sums old hours into days, at its start and every hour (the CLI never does). */
  compaction: trueOrFalse,
});
export type UsageSettings = t.TypeOf<typeof UsageSettingsCodec>;

/** The `usage` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const usageSettings: SettingsSection<'usage', UsageSettings> = {
  key: 'usage',
  codec: UsageSettingsCodec,
  defaults: {
    retentionDays: 90,
    flushIntervalMs: 10000,
    compaction: true,
  },
  environment: [
    { name: 'UTILITY_API_USAGE_RETENTION_DAYS', path: 'retentionDays', parse: asInteger },
    { name: 'UTILITY_API_USAGE_FLUSH_MS', path: 'flushIntervalMs', parse: asInteger },
    { name: 'UTILITY_API_USAGE_COMPACTION', path: 'compaction', parse: asBoolean },
  ],
};
