import * as E from 'fp-ts/lib/Either.js';
import type { VerifiedTokenCache } from '../auth/verified-token-cache.js';
import type { Clock } from '../clock.js';
import type { DomainError } from '../errors.js';
import { orOutage } from '../outage.js';
import type { UserStore } from './ports.js';
import type { User } from './user.js';

/** Blocks or unblocks a user; effective for this process's next request. */
export class SetUserBlocked {
  constructor(
    private readonly users: UserStore,
    private readonly clock: Clock,
    private readonly verifiedTokens: VerifiedTokenCache,
  ) {}

  async execute(username: string, blocked: boolean): Promise<E.Either<DomainError, User>> {
    const found = await orOutage(this.users.findByUsername(username.toLowerCase()), { _tag: 'UserUpdateFailed' });
    if (E.isLeft(found)) return found;
    if (!found.right) return E.left({ _tag: 'UserNotFound', user: username });
    const updated = await orOutage(this.users.update(found.right.id, { blocked }, this.clock.now()), { _tag: 'UserUpdateFailed' });
    this.verifiedTokens.forgetUser(found.right.id);
    if (E.isLeft(updated)) return updated;
    if (!updated.right.updated) return E.left({ _tag: 'UserNotFound', user: username });
    return E.right(updated.right.updated);
  }
}
