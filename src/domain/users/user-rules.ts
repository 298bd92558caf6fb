import { actorHolds, type Actor } from '../auth/actor.js';
import type { DomainError } from '../errors.js';
import { isGrantablePermission } from '../permissions.js';
import { hasControlCharacter } from '../text.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password.js';

const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;
export const MAX_NAME_LENGTH = 100;

/** Names and labels: at most 100 characters, no control characters; whichever transport sent them. */
export function checkText(field: string, value: string | undefined): DomainError | undefined {
  if (value === undefined) return undefined;
  return value.trim().length <= MAX_NAME_LENGTH && !hasControlCharacter(value)
    ? undefined
    : { _tag: 'InvalidBodyParameter', names: [field], details: `${field} must be at most ${MAX_NAME_LENGTH} characters without control characters` };
}

/**
 * Whether `actor` may give these permissions to someone who already has `alreadyHeld`: each must
 * be a known name and either held by the actor (wildcards included: holding
 * `Cryptography::Encrypt` does not let you give `Cryptography::*`) or already the target's.
 */
export function checkGrant(actor: Actor, permissions: readonly string[], alreadyHeld: readonly string[], field = 'permissions'): DomainError | undefined {
  const unknown = permissions.filter((p) => !isGrantablePermission(p));
  if (unknown.length > 0) return { _tag: 'InvalidBodyParameter', names: [field], details: `Unknown permission(s): ${unknown.join(', ')}` };
  const beyond = permissions.find((p) => !alreadyHeld.includes(p) && !actorHolds(actor, p));
  return beyond === undefined ? undefined : { _tag: 'NotAuthorized', permission: beyond };
}

export function checkEmail(email: string | undefined): DomainError | undefined {
  if (email === undefined) return undefined;
  const trimmed = email.trim();
  return EMAIL.test(trimmed) && trimmed.length <= 320 ? undefined : { _tag: 'InvalidBodyParameter', names: ['email'], details: 'email must look like name@example.com' };
}

export function checkPassword(password: string | undefined): DomainError | undefined {
  if (password === undefined) return undefined;
  return password.length >= MIN_PASSWORD_LENGTH && password.length <= MAX_PASSWORD_LENGTH && !hasControlCharacter(password)
    ? undefined
    : { _tag: 'InvalidBodyParameter', names: ['password'], details: `password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters` };
}
