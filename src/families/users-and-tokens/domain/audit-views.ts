import type { AuditTarget, AuditValue } from '../../../domain/audit.js';
import type { TokenRecord } from '../../../domain/identity/token.js';
import type { User } from '../../../domain/identity/user.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const userTarget = (user: Pick<User, 'uid' | 'username'>): AuditTarget => ({
  type: 'user',
  id: user.uid,
  label: user.username,
});

export const tokenTarget = (record: Pick<TokenRecord, 'id' | 'name' | 'prefix'>): AuditTarget => ({
  type: 'token',
  id: record.id,
  label: record.name ?? record.prefix,
});

/** What the trail shows of a user, named as the API names it; never the password hash. */
export const userAuditFields = (user: Omit<User, 'id' | 'uid' | 'passwordHash' | 'createdAt' | 'updatedAt'>) => ({
  username: user.username,
  firstname: user.firstName,
  lastname: user.lastName,
  displayname: user.displayName,
  email: user.email,
  permissions: [...user.permissions],
  blocked: user.blocked,
  quota: user.quota && { ...user.quota },
});

/** What the trail shows of a token, named as the API names it; never the secret or its hash. */
export const tokenAuditFields = (record: TokenRecord): Record<string, AuditValue> => ({
  name: record.name,
  prefix: record.prefix,
  permissions: [...record.scopes],
  expiresAt: iso(record.expiresAt),
  rateLimit: record.rateLimit && { ...record.rateLimit },
  quota: record.quota && { ...record.quota },
  allowedAddresses: record.allowedAddresses && [...record.allowedAddresses],
  disabled: record.disabled,
  origin: record.origin,
  issuedThrough: record.issuedThrough,
});
