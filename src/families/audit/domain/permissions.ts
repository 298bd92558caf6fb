/**
 * The permissions of the audit trail. Anyone reads the entries they made or that are about them
 * (their account, their tokens); `Audit::Read` reads everybody's.
 */
export const AuditPermission = {
  AuditRead: 'Audit::Read',
} as const;
