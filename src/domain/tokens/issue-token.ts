import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../clock.js';
import type { DomainError } from '../errors.js';
import { orOutage } from '../outage.js';
import { grantedBy, isGrantablePermission } from '../permissions.js';
import type { UserStore } from '../users/ports.js';
import type { User } from '../users/user.js';
import type { TokenStore } from './ports.js';
import { issueLicense, issueSecret } from './secret.js';
import type { TokenRecord } from './token.js';

export interface IssueTokenInput {
  readonly username: string;
  /** Narrows the token below its user's permissions; defaults to all of them. */
  readonly scopes?: readonly string[];
  readonly expiresInMs?: number;
  readonly name?: string;
}

export interface IssuedToken {
  /** The secret: shown once, here, and never again. */
  readonly secret: string;
  readonly record: TokenRecord;
  readonly user: User;
}

export class IssueToken {
  constructor(
    private readonly users: UserStore,
    private readonly tokens: TokenStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: IssueTokenInput): Promise<E.Either<DomainError, IssuedToken>> {
    const found = await orOutage(this.users.findByUsername(input.username.toLowerCase()), { _tag: 'TokenCreateFailed' });
    if (E.isLeft(found)) return found;
    const user = found.right;
    if (!user) return E.left({ _tag: 'UserNotFound', user: input.username });

    const scopes = [...new Set(input.scopes ?? user.permissions)];
    const unknown = scopes.filter((p) => !isGrantablePermission(p));
    if (unknown.length > 0) {
      return E.left({ _tag: 'InvalidBodyParameter', names: ['permissions'], details: `Unknown permission(s): ${unknown.join(', ')}` });
    }
    const beyondUser = scopes.find((p) => !grantedBy(user.permissions, p));
    if (beyondUser !== undefined) return E.left({ _tag: 'NotAuthorized', permission: beyondUser });

    const now = this.clock.now();
    const { secret, secretHash, prefix } = issueSecret();
    const record: TokenRecord = {
      id: randomUUID(),
      userId: user.id,
      secretHash,
      prefix,
      license: issueLicense(),
      name: input.name ?? null,
      scopes,
      createdAt: now,
      expiresAt: input.expiresInMs === undefined ? null : now + input.expiresInMs,
      lastUsedAt: null,
      uses: 0,
      disabled: false,
    };
    const inserted = await orOutage(this.tokens.insert(record), { _tag: 'TokenCreateFailed' });
    if (E.isLeft(inserted)) return inserted;
    // A collision of 256 random bits or 80-bit licences means something is badly wrong; never retry silently.
    if (!inserted.right.inserted) return E.left({ _tag: 'TokenCreateFailed' });
    return E.right({ secret, record, user });
  }
}
