import { defineFamily } from '../../wiring/family.js';
import { usersAndTokensSamples } from './users-and-tokens-samples.js';
import { UsersAndTokensPermission } from './domain/permissions.js';
import { usersAndTokensCommands } from './users-and-tokens-commands.js';
import { defaultRateLimitOf } from '../../platform/config/platform-settings.js';
import { USERS_AND_TOKENS_MIGRATIONS } from './adapters/knex/migrations.js';
import { usersAndTokensModule, UsersAndTokensUseCases } from './users-and-tokens-module.js';
import { usersAndTokensSettings } from './users-and-tokens-settings.js';

/** Users, their tokens, and who a request is: authentication by token or password. */
export const usersAndTokens = defineFamily({
  name: 'usersAndTokens',
  settings: usersAndTokensSettings,
  permissions: UsersAndTokensPermission,
  module: (settings, platform) => usersAndTokensModule({ ...settings, defaultRateLimit: defaultRateLimitOf(platform) }),
  commands: usersAndTokensCommands,
  useCases: UsersAndTokensUseCases,
  samples: usersAndTokensSamples,
  migrations: USERS_AND_TOKENS_MIGRATIONS,
});
