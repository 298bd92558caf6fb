import { defineFamily } from '../../wiring/family.js';
import { auditCommands } from './audit-commands.js';
import { auditModule, AuditUseCases } from './audit-module.js';
import { auditSamples } from './audit-samples.js';
import { auditSettings } from './audit-settings.js';
import { AuditPermission } from './domain/permissions.js';

/** The audit trail: who changed which user or token, how, from where, and every password login checked. */
export const audit = defineFamily({
  name: 'audit',
  settings: auditSettings,
  permissions: AuditPermission,
  module: (settings) => auditModule(settings),
  useCases: AuditUseCases,
  commands: auditCommands,
  samples: auditSamples,
});
