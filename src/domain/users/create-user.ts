import { randomBytes, randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../clock.js';
import type { DomainError } from '../errors.js';
import { orOutage } from '../outage.js';
import { isGrantablePermission } from '../permissions.js';
import type { UserStore } from './ports.js';
import { USERNAME_PATTERN, type User } from './user.js';

export interface CreateUserInput {
  readonly username: string;
  readonly permissions?: readonly string[];
  readonly firstName?: string;
  readonly lastName?: string;
  readonly email?: string;
}

export class CreateUser {
  constructor(
    private readonly users: UserStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateUserInput): Promise<E.Either<DomainError, User>> {
    const username = input.username.trim().toLowerCase();
    if (!USERNAME_PATTERN.test(username)) {
      return E.left({
        _tag: 'InvalidBodyParameter',
        names: ['username'],
        details: 'username must be 2-32 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit',
      });
    }
    const permissions = [...new Set(input.permissions ?? [])];
    const unknown = permissions.filter((p) => !isGrantablePermission(p));
    if (unknown.length > 0) {
      return E.left({ _tag: 'InvalidBodyParameter', names: ['permissions'], details: `Unknown permission(s): ${unknown.join(', ')}` });
    }
    const now = this.clock.now();
    const user: User = {
      id: randomUUID(),
      uid: randomBytes(21).toString('base64url'),
      username,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      displayName: null,
      email: input.email?.toLowerCase() ?? null,
      passwordHash: null,
      permissions,
      blocked: false,
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await orOutage(this.users.insert(user), { _tag: 'UserCreateFailed' });
    if (E.isLeft(inserted)) return inserted;
    if (!inserted.right.inserted) {
      return E.left({ _tag: 'Conflict', details: `A user with this ${inserted.right.conflict} already exists` });
    }
    return E.right(user);
  }
}
