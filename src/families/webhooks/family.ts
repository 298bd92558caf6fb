import { defineFamily } from '../../wiring/family.js';
import { WEBHOOK_MIGRATIONS } from './adapters/migrations.js';
import { WebhooksPermission } from './domain/permissions.js';
import { webhooksCommands } from './webhooks-commands.js';
import { webhooksModule, WebhooksUseCases } from './webhooks-module.js';
import { webhooksSamples } from './webhooks-samples.js';
import { webhooksSettings } from './webhooks-settings.js';

/** Webhooks: endpoints that are sent signed events about keys, quotas, users and mail. */
export const webhooks = defineFamily({
  name: 'webhooks',
  settings: webhooksSettings,
  permissions: WebhooksPermission,
  module: (settings) => webhooksModule(settings),
  useCases: WebhooksUseCases,
  commands: webhooksCommands,
  samples: webhooksSamples,
  migrations: WEBHOOK_MIGRATIONS,
});
