/**
 * What other families and library users may use of the audit trail: its use case, what it takes
 * and answers, and its permissions. The entries themselves and the trail's port are the shared
 * domain's: the platform and the families that change users or tokens write them.
 */
export type { AuditEntryView, AuditPage, AuditRequest, ReadAudit } from './read-audit.js';
export { AuditPermission } from './permissions.js';
