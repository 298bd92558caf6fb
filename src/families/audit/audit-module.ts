import { ContainerModule } from 'inversify';
import { AuditTrail } from '../../domain/audit.js';
import { Clock } from '../../domain/ports.js';
import { LifecycleComponent } from '../../platform/lifecycle.js';
import { Log, RouteContribution, useCasesIdentifier } from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import { auditPruning } from './audit-pruning.js';
import { auditRoutes } from './audit-routes.js';
import type { AuditSettings } from './audit-settings.js';
import { ReadAudit } from './domain/read-audit.js';

/** What the family offers a library user: reading the audit trail. */
export interface AuditUseCases {
  readonly readAudit: ReadAudit;
}
export const AuditUseCases = useCasesIdentifier<AuditUseCases>('AuditUseCases');

/**
 * Reading the audit trail, and removing entries past their retention. The trail itself is the
 * storage's (the stores write their changes' entries into it in their own transactions).
 */
export const auditModule = (settings: AuditSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide } = typedBindings(options);
    provide(AuditUseCases, [AuditTrail], (trail) => ({ readAudit: new ReadAudit(trail) })).inSingletonScope();
    if (settings.pruning)
      provide(LifecycleComponent, [AuditTrail, Clock, Log], (trail, clock, logger) =>
        auditPruning(trail, clock, settings.retentionDays, logger),
      ).inSingletonScope();
    provide(RouteContribution, [AuditUseCases], ({ readAudit }) => ({
      section: { name: 'Audit trail', description: 'Who changed which user or token, what changed and from where.' },
      routes: auditRoutes(readAudit),
    }));
  });
