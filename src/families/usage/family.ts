import { defineFamily } from '../../wiring/family.js';
import { USAGE_MIGRATIONS } from './adapters/migrations.js';
import { UsagePermission } from './domain/permissions.js';
import { usageCommands } from './usage-commands.js';
import { usageModule, UsageUseCases } from './usage-module.js';
import { usageSamples } from './usage-samples.js';
import { usageSettings } from './usage-settings.js';

/** How each token was used: requests counted by token, operation, status class and hour. */
export const usage = defineFamily({
  name: 'usage',
  settings: usageSettings,
  permissions: UsagePermission,
  module: (settings) => usageModule(settings),
  useCases: UsageUseCases,
  commands: usageCommands,
  samples: usageSamples,
  migrations: USAGE_MIGRATIONS,
});
