import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../../../../domain/errors.js';
import { orOutage } from '../../../../domain/outage.js';
import type { AccessChanges } from '../auth/access-changes.js';
import type { TokenStore } from './ports.js';

/**
 * Ends the sessions of a user's password: the tokens password logins issued to them (origin
 * `password`) and whatever was minted through those, on this process at once and on the others
 * once they hear of it. Tokens issued otherwise, by a token or at the command line, stay.
 */
export class EndPasswordSessions {
  constructor(
    private readonly tokens: TokenStore,
    private readonly accessChanges: AccessChanges,
  ) {}

  async execute(userId: string): Promise<E.Either<DomainError, readonly string[]>> {
    const ended = await orOutage(this.tokens.deleteByOrigin(userId, 'password'), { _tag: 'UserUpdateFailed' });
    await this.accessChanges.announce({ kind: 'user', id: userId });
    return ended;
  }
}
