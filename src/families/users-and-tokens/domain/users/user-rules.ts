import { actorHolds, type Actor } from '../../../../domain/identity/actor.js';
import { invalidInput, type DomainError } from '../../../../domain/errors.js';
import type { PermissionCatalogue } from '../../../../domain/permissions.js';
import { characterCount, CONTROL_OR_INVISIBLE_RULE, hasControlOrInvisibleCharacter } from '../../../../domain/text.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
export const MAX_NAME_LENGTH = 100;
/** Characters, as everywhere: the longest address RFC 5321 lets through, counted generously. */
export const MAX_EMAIL_LENGTH = 320;

/** Names and labels: at most 100 characters (code points), none refused by the text rule; whichever transport sent them. */
export function checkText(field: string, value: string | undefined): DomainError | undefined {
  if (value === undefined) return undefined;
  return characterCount(value.trim()) <= MAX_NAME_LENGTH && !hasControlOrInvisibleCharacter(value)
    ? undefined
    : invalidInput(
        field,
        `${field} must be at most ${MAX_NAME_LENGTH} characters without ${CONTROL_OR_INVISIBLE_RULE}`,
      );
}

/**
 * Whether `actor` may give these permissions to someone who already has `alreadyHeld`: each must
 * be a known name and either held by the actor (wildcards included: holding
 * `Cryptography::Encrypt` does not let you give `Cryptography::*`) or already the target's.
 */
export function checkGrant(
  actor: Actor,
  permissions: readonly string[],
  alreadyHeld: readonly string[],
  catalogue: PermissionCatalogue,
  field = 'permissions',
): DomainError | undefined {
  const unknown = permissions.filter((p) => !catalogue.isGrantable(p));
  if (unknown.length > 0) return invalidInput(field, `Unknown permission(s): ${unknown.join(', ')}`);
  const beyond = permissions.find((p) => !alreadyHeld.includes(p) && !actorHolds(actor, p));
  return beyond === undefined ? undefined : { _tag: 'NotAuthorized', permission: beyond };
}

export function checkEmail(email: string | undefined): DomainError | undefined {
  if (email === undefined) return undefined;
  const trimmed = email.trim();
  // Checked before trimming: trim() takes U+FEFF for white space and would drop it unseen.
  return EMAIL.test(trimmed) && characterCount(trimmed) <= MAX_EMAIL_LENGTH && !hasControlOrInvisibleCharacter(email)
    ? undefined
    : invalidInput(
        'email',
        `email must look like name@example.com, at most ${MAX_EMAIL_LENGTH} characters without ${CONTROL_OR_INVISIBLE_RULE}`,
      );
}

export function checkPassword(password: string | undefined): DomainError | undefined {
  if (password === undefined) return undefined;
  const length = characterCount(password);
  return length >= MIN_PASSWORD_LENGTH && length <= MAX_PASSWORD_LENGTH && !hasControlOrInvisibleCharacter(password)
    ? undefined
    : invalidInput(
        'password',
        `password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters without ${CONTROL_OR_INVISIBLE_RULE}`,
      );
}
