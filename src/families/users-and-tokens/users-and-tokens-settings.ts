import * as t from 'io-ts';
import { HIGHEST_PASSWORD_COST, LOWEST_PASSWORD_COST, STANDARD_PASSWORD_COST } from './domain/users/password.js';
import { asInteger, intInRange, type SettingsSection } from '../../platform/config/codecs.js';

export const AuthSettingsCodec = t.type({
  verifiedTokenTtlMs: intInRange(0, 3_600_000),
  /** How often counted token uses are written to the store. */
  usageFlushIntervalMs: intInRange(100, 3_600_000),
  /** log2 of scrypt's N for new password hashes; production refuses less than the standard 15. */
  passwordCost: intInRange(LOWEST_PASSWORD_COST, HIGHEST_PASSWORD_COST),
  /** Unexpired tokens one user may hold, whoever issues them (a password login, another user, the CLI); beyond it 409/26. */
  maxTokensPerUser: intInRange(1, 1_000_000),
  loginThrottle: t.type({
    /**
     * Failed logins one client address may make over all accounts in 15 minutes before it waits;
     * an account tried from one address waits after 5, and one tried from many is slowed down.
     */
    perAddress: intInRange(5, 1_000_000),
  }),
});
export type AuthSettings = t.TypeOf<typeof AuthSettingsCodec>;

/** The `auth` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const usersAndTokensSettings: SettingsSection<'auth', AuthSettings> = {
  key: 'auth',
  codec: AuthSettingsCodec,
  defaults: {
    verifiedTokenTtlMs: 5000,
    usageFlushIntervalMs: 10000,
    passwordCost: 15,
    maxTokensPerUser: 100,
    loginThrottle: {
      perAddress: 100,
    },
  },
  environment: [
    { name: 'UTILITY_API_TOKEN_CACHE_TTL_MS', path: 'verifiedTokenTtlMs', parse: asInteger },
    { name: 'UTILITY_API_TOKEN_USAGE_FLUSH_MS', path: 'usageFlushIntervalMs', parse: asInteger },
    { name: 'UTILITY_API_SCRYPT_COST', path: 'passwordCost', parse: asInteger },
    { name: 'UTILITY_API_LOGIN_FAILURES_PER_ADDRESS', path: 'loginThrottle.perAddress', parse: asInteger },
    { name: 'UTILITY_API_MAX_TOKENS_PER_USER', path: 'maxTokensPerUser', parse: asInteger },
  ],
  check: ({ passwordCost }, { production }) =>
    production && passwordCost < STANDARD_PASSWORD_COST
      ? [
          `Invalid setting auth.passwordCost: NODE_ENV=production hashes passwords at scrypt cost ${STANDARD_PASSWORD_COST} or more (env UTILITY_API_SCRYPT_COST)`,
        ]
      : [],
};
