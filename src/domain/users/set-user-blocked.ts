import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../auth/actor.js';
import type { VerifiedTokenCache } from '../auth/verified-token-cache.js';
import type { Clock } from '../clock.js';
import type { DomainError } from '../errors.js';
import { orOutage } from '../outage.js';
import { Permission } from '../permissions.js';
import type { UserStore } from './ports.js';
import { targetUser, type UserRef } from './target-user.js';
import type { User } from './user.js';

/** Blocks or unblocks a user; effective for this process's next request. */
export class SetUserBlocked {
  constructor(
    private readonly users: UserStore,
    private readonly clock: Clock,
    private readonly verifiedTokens: VerifiedTokenCache,
  ) {}

  async execute(actor: Actor, ref: UserRef, blocked: boolean): Promise<E.Either<DomainError, User>> {
    const target = await targetUser(this.users, actor, ref, Permission.UsersUpdate, { _tag: 'UserUpdateFailed' });
    if (E.isLeft(target)) return target;
    const updated = await orOutage(this.users.update(target.right.id, { blocked }, this.clock.now()), { _tag: 'UserUpdateFailed' });
    this.verifiedTokens.forgetUser(target.right.id);
    if (E.isLeft(updated)) return updated;
    return updated.right.updated ? E.right(updated.right.updated) : E.left({ _tag: 'UserNotFound', user: target.right.uid });
  }
}
