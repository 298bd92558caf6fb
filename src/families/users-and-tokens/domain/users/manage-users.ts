import { userEvent } from '../events.js';
import type { PermissionCatalogue } from '../../../../domain/permissions.js';
import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, type Actor } from '../../../../domain/identity/actor.js';
import type { AccessChanges } from '../auth/access-changes.js';
import type { DomainError } from '../../../../domain/errors.js';
import { orOutage, USER_STORE_DOWN } from '../../../../domain/outage.js';
import { UsersAndTokensPermission } from '../permissions.js';
import type { Clock } from '../../../../domain/ports.js';
import type { Passwords, UserStore } from './ports.js';
import { checkOutranks, targetUser, type UserRef } from './target-user.js';
import type { User, UserChanges } from '../../../../domain/identity/user.js';
import { checkEmail, checkGrant, checkPassword, checkText } from './user-rules.js';
import type { Quota } from '../../../../domain/identity/quota.js';
import { checkQuota } from '../quota-rules.js';
import { auditEntry, changesBetween, SECRET_CHANGED } from '../../../../domain/audit.js';
import { userAuditFields, userTarget } from '../audit-views.js';

export class GetUser {
  constructor(private readonly users: UserStore) {}

  execute(actor: Actor, ref: UserRef): Promise<E.Either<DomainError, User>> {
    return targetUser(this.users, actor, ref, UsersAndTokensPermission.UsersRead, USER_STORE_DOWN);
  }
}

export interface UserUpdate {
  /** The names are the only changes that need no rank over the user (see `checkOutranks`). */
  readonly displayName?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  /**
   * A blocked user's tokens answer 403 code 2 everywhere. Always needs `Users::Block`; an update
   * that only blocks or unblocks somebody else needs it instead of `Users::Update`, so that a
   * moderator can block without being able to change anything else.
   */
  readonly blocked?: boolean;
  readonly email?: string;
  readonly password?: string;
  readonly permissions?: readonly string[];
  /** Shared by all of the user's tokens; null removes it. Even on oneself it needs `Users::Update`. */
  readonly quota?: Quota | null;
}

export class UpdateUser {
  constructor(
    private readonly users: UserStore,
    private readonly clock: Clock,
    private readonly accessChanges: AccessChanges,
    private readonly passwords: Passwords,
    private readonly permissions: PermissionCatalogue,
  ) {}

  async execute(actor: Actor, ref: UserRef, update: UserUpdate): Promise<E.Either<DomainError, User>> {
    const { permissions, email, password, blocked } = update;
    const onlyBlocks = Object.entries(update).every(([field, value]) => field === 'blocked' || value === undefined);
    const forOthers = onlyBlocks ? UsersAndTokensPermission.UsersBlock : UsersAndTokensPermission.UsersUpdate;
    const target = await targetUser(this.users, actor, ref, forOthers, { _tag: 'UserUpdateFailed' });
    if (E.isLeft(target)) return target;
    const user = target.right;
    if (permissions !== undefined || email !== undefined || password !== undefined || blocked !== undefined) {
      const outranked = checkOutranks(actor, user);
      if (outranked) return E.left(outranked);
    }
    if (blocked !== undefined && !actorHolds(actor, UsersAndTokensPermission.UsersBlock))
      return E.left({ _tag: 'NotAuthorized', permission: UsersAndTokensPermission.UsersBlock });
    if (update.permissions !== undefined) {
      if (!actorHolds(actor, UsersAndTokensPermission.UsersPermissions))
        return E.left({ _tag: 'NotAuthorized', permission: UsersAndTokensPermission.UsersPermissions });
      const refused = checkGrant(actor, update.permissions, user.permissions, this.permissions, 'perms');
      if (refused) return E.left(refused);
    }
    if (update.quota !== undefined) {
      if (!actorHolds(actor, UsersAndTokensPermission.UsersUpdate))
        return E.left({ _tag: 'NotAuthorized', permission: UsersAndTokensPermission.UsersUpdate });
      const beyond = checkOutranks(actor, user) ?? checkQuota(actor, update.quota);
      if (beyond) return E.left(beyond);
    }
    const refused =
      checkText('displayname', update.displayName) ??
      checkText('firstname', update.firstName) ??
      checkText('lastname', update.lastName) ??
      checkEmail(update.email) ??
      checkPassword(update.password);
    if (refused) return E.left(refused);

    const changes: UserChanges = {
      displayName: update.displayName?.trim(),
      // An empty name clears it, as a user created without one has none.
      firstName: update.firstName === undefined ? undefined : update.firstName.trim() || null,
      lastName: update.lastName === undefined ? undefined : update.lastName.trim() || null,
      email: update.email?.trim().toLowerCase(),
      passwordHash: update.password === undefined ? undefined : await this.passwords.hash(update.password),
      permissions: update.permissions === undefined ? undefined : [...new Set(update.permissions)],
      blocked: update.blocked,
      quota: update.quota,
    };
    const now = this.clock.now();
    const audited = auditEntry(actor, now, 'user.update', userTarget(user), user.id, {
      ...changesBetween(userAuditFields(user), {
        firstname: changes.firstName,
        lastname: changes.lastName,
        displayname: changes.displayName,
        email: changes.email,
        permissions: changes.permissions,
        blocked: changes.blocked,
        quota: changes.quota && { ...changes.quota },
      }),
      ...(update.password === undefined ? {} : { password: SECRET_CHANGED }),
    });
    // Blocking and unblocking announce the user as they will be.
    const blockedChanged = changes.blocked !== undefined && changes.blocked !== user.blocked;
    const entry = blockedChanged
      ? {
          ...audited,
          events: [userEvent(changes.blocked ? 'user.blocked' : 'user.unblocked', now, userAfter(user, changes, now))],
        }
      : audited;
    // A new password ends the user's password sessions in the same step (see UserStore.update).
    const result = await orOutage(this.users.update(user.id, changes, this.clock.now(), entry), {
      _tag: 'UserUpdateFailed',
    });
    if (E.isLeft(result)) return result;
    await this.accessChanges.announce({ kind: 'user', id: user.id });
    if ('conflict' in result.right && result.right.conflict)
      return E.left({ _tag: 'Conflict', details: 'A user with this email already exists' });
    if (!result.right.updated) return E.left({ _tag: 'UserNotFound', user: user.uid });
    return E.right(result.right.updated);
  }
}

/** The user as an update leaves them: each change given replaces its field. */
function userAfter(user: User, changes: UserChanges, now: number): User {
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  return { ...user, ...given, updatedAt: now };
}

/** Deletes a user and every token of theirs at once; what is kept of them is nothing. */
export class DeleteUser {
  constructor(
    private readonly users: UserStore,
    private readonly accessChanges: AccessChanges,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, ref: UserRef): Promise<E.Either<DomainError, User>> {
    const target = await targetUser(this.users, actor, ref, UsersAndTokensPermission.UsersDelete, {
      _tag: 'UserDeleteFailed',
    });
    if (E.isLeft(target)) return target;
    const outranked = checkOutranks(actor, target.right);
    if (outranked) return E.left(outranked);
    const now = this.clock.now();
    const entry = {
      ...auditEntry(actor, now, 'user.delete', userTarget(target.right), target.right.id),
      events: [userEvent('user.deleted', now, target.right)],
    };
    const deleted = await orOutage(this.users.delete(target.right.id, entry), { _tag: 'UserDeleteFailed' });
    await this.accessChanges.announce({ kind: 'user', id: target.right.id });
    if (E.isLeft(deleted)) return deleted;
    return deleted.right ? E.right(target.right) : E.left({ _tag: 'UserNotFound', user: target.right.uid });
  }
}
