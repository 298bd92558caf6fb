import { defineFamily } from '../../wiring/family.js';
import { contentSamples } from './content-samples.js';
import { ContentPermission } from './domain/permissions.js';
import { contentCommands } from './content-commands.js';
import { CONTENT_MIGRATIONS } from './adapters/migrations.js';
import { contentModule, ContentUseCases } from './content-module.js';
import { contentSettings } from './content-settings.js';

/** Facts and quotes: stored, imported, and fetched live from their upstreams. */
export const content = defineFamily({
  name: 'content',
  settings: contentSettings,
  permissions: ContentPermission,
  module: (settings) => contentModule(settings),
  commands: contentCommands,
  useCases: ContentUseCases,
  samples: contentSamples,
  migrations: CONTENT_MIGRATIONS,
});
