import { defineFamily } from '../../wiring/family.js';
import { mailSamples } from './mail-samples.js';
import { MailPermission } from './domain/permissions.js';
import { mailCommands } from './mail-commands.js';
import { MAIL_MIGRATIONS } from './adapters/migrations.js';
import { mailModule, MailUseCases } from './mail-module.js';
import { mailSettings } from './mail-settings.js';

/** Mail through a durable outbox, delivered by a worker over SMTP (or to .eml files). */
export const mail = defineFamily({
  name: 'mail',
  settings: mailSettings,
  permissions: MailPermission,
  module: (settings, { dataDir, shutdown }) =>
    mailModule({ ...settings, dataDir, drainDeadlineMs: shutdown.drainDeadlineMs }),
  commands: mailCommands,
  useCases: MailUseCases,
  samples: mailSamples,
  migrations: MAIL_MIGRATIONS,
});
