import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, actorUser, actorUserId, firstNotHeld, type Actor } from '../../../../domain/identity/actor.js';
import { missingInput, type DomainError, type OutageError } from '../../../../domain/errors.js';
import { orOutage } from '../../../../domain/outage.js';
import type { UserStore } from './ports.js';
import type { User } from '../../../../domain/identity/user.js';

/** The field that names a user by uid, under the domain's name for it. */
export const UID_FIELD = 'uid';

/**
 * Names the user a management call acts on: by uid, by username, by email, or yourself, when the
 * call names nobody. `fieldNames.uid` is what the caller calls the uid field (a transport may
 * give it under another name), for the error of a caller with no user of its own naming nobody.
 */
export type UserRef =
  | { readonly uid: string }
  | { readonly username: string }
  /** Compared as stored: lower-cased and trimmed. */
  | { readonly email: string }
  | { readonly self: true; readonly fieldNames?: { readonly uid?: string } };

/**
 * Finds the user acted on. Acting on yourself needs only a valid token; acting on anyone else
 * needs `permissionForOthers`, checked before the lookup so that a refusal says nothing about
 * whether the user exists. A password proves who you are, nothing more: it acts on yourself only.
 */
export async function targetUser(
  users: UserStore,
  actor: Actor,
  ref: UserRef,
  permissionForOthers: string,
  outage: OutageError,
): Promise<E.Either<DomainError, User>> {
  const ownerId = actorUser(actor)?.id;
  const namesOwner = 'self' in ref || namesUser(ref, actorUser(actor));
  if (namesOwner && ownerId === undefined)
    return E.left(missingInput(('self' in ref && ref.fieldNames?.uid) || UID_FIELD));
  const actsAsSelf = namesOwner && actorUserId(actor) === ownerId;
  if (!actsAsSelf && (actor.kind === 'password' || !actorHolds(actor, permissionForOthers))) {
    return E.left({ _tag: 'NotAuthorized', permission: permissionForOthers });
  }
  const lookup = namesOwner
    ? users.findById(ownerId!)
    : 'uid' in ref
      ? users.findByUid(ref.uid)
      : 'email' in ref
        ? users.findByEmail(ref.email.trim().toLowerCase())
        : users.findByUsername((ref as { username: string }).username.toLowerCase());
  const found = await orOutage(lookup, outage);
  if (E.isLeft(found)) return found;
  if (!found.right) return E.left({ _tag: 'UserNotFound', user: nameOf(ref) });
  return E.right(found.right);
}

/** Whether `ref` names `user`, however it names them (as the stores compare usernames and emails). */
function namesUser(ref: UserRef, user: User | undefined): boolean {
  if (user === undefined) return false;
  if ('uid' in ref) return ref.uid === user.uid;
  if ('username' in ref) return ref.username.toLowerCase() === user.username;
  if ('email' in ref) return user.email !== null && ref.email.trim().toLowerCase() === user.email;
  return false;
}

const nameOf = (ref: UserRef): string =>
  'uid' in ref ? ref.uid : 'username' in ref ? ref.username : 'email' in ref ? ref.email : 'self';

/**
 * Nobody acts on a user who holds more than they do: changing a user's permissions, email or
 * password, blocking, deleting or issuing them a token needs every permission they hold
 * (wildcards as wholes: only `*` touches a `*` user). It holds for a token acting on its own
 * user too, so a narrow token cannot take over its user by changing the password.
 */
export function checkOutranks(actor: Actor, target: User): DomainError | undefined {
  const lacking = firstNotHeld(actor, target.permissions);
  return lacking === undefined ? undefined : { _tag: 'NotAuthorized', permission: lacking };
}
