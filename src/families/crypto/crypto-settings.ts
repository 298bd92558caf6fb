import * as t from 'io-ts';
import {
  asInteger,
  asList,
  asString,
  checked,
  intInRange,
  type SettingsSection,
} from '../../platform/config/codecs.js';

/** base64 (or base64url) of exactly 32 bytes: an AES-256 key. */
export const EncryptionKey = checked(
  'base64 of exactly 32 bytes',
  (u): u is string =>
    typeof u === 'string' && /^[A-Za-z0-9+/_-]{43}=?$/.test(u) && Buffer.from(u, 'base64').length === 32,
);

export const EncryptionSettingsCodec = t.type({
  /** Current key; null outside production means "generate one into dataDir once". */
  key: t.union([EncryptionKey, t.null]),
  /** Older keys that can still decrypt after a rotation. */
  previousKeys: t.array(EncryptionKey),
  maxPlaintextBytes: intInRange(1, 1_048_576),
});
export type EncryptionSettings = t.TypeOf<typeof EncryptionSettingsCodec>;

/** The `encryption` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const cryptoSettings: SettingsSection<'encryption', EncryptionSettings> = {
  key: 'encryption',
  codec: EncryptionSettingsCodec,
  defaults: {
    key: null,
    previousKeys: [],
    maxPlaintextBytes: 8192,
  },
  environment: [
    { name: 'UTILITY_API_ENCRYPTION_KEY', path: 'key', parse: asString },
    { name: 'UTILITY_API_PREVIOUS_ENCRYPTION_KEYS', path: 'previousKeys', parse: asList },
    { name: 'UTILITY_API_MAX_DATA_BYTES', path: 'maxPlaintextBytes', parse: asInteger },
  ],
  check: ({ key }, { production }) =>
    production && key === null
      ? [
          'Missing setting encryption.key: set UTILITY_API_ENCRYPTION_KEY to base64 of 32 random bytes (NODE_ENV=production never generates one)',
        ]
      : [],
};
