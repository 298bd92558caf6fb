import * as t from 'io-ts';
import { asBoolean, asInteger, intInRange, trueOrFalse, type SettingsSection } from '../../platform/config/codecs.js';

export const AuditSettingsCodec = t.type({
  /** Days entries are kept; older ones are removed in the background. */
  retentionDays: intInRange(1, 36500),
  /** Whether this process removes old entries, at its start and every hour (the CLI never does). */
  pruning: trueOrFalse,
});
export type AuditSettings = t.TypeOf<typeof AuditSettingsCodec>;

/** The `audit` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const auditSettings: SettingsSection<'audit', AuditSettings> = {
  key: 'audit',
  codec: AuditSettingsCodec,
  defaults: {
    retentionDays: 365,
    pruning: true,
  },
  environment: [
    { name: 'UTILITY_API_AUDIT_RETENTION_DAYS', path: 'retentionDays', parse: asInteger },
    { name: 'UTILITY_API_AUDIT_PRUNING', path: 'pruning', parse: asBoolean },
  ],
};
