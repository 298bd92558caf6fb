import { randomBytes, randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, type Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { DomainError } from '../errors.js';
import { orOutage } from '../outage.js';
import { Permission } from '../permissions.js';
import { hashPassword } from './password.js';
import type { UserStore } from './ports.js';
import { USERNAME_PATTERN, type User } from './user.js';
import { checkEmail, checkGrant, checkPassword, checkText } from './user-rules.js';

export interface CreateUserInput {
  readonly actor: Actor;
  /** Derived from the name when absent. */
  readonly username?: string;
  readonly permissions?: readonly string[];
  readonly firstName?: string;
  readonly lastName?: string;
  readonly email?: string;
  readonly password?: string;
}

const MAX_DERIVED_ATTEMPTS = 50;

/** "Zoë O'Brien" → "zoe.obrien": what a person would type, from what they are called. */
export function usernameFromName(firstName: string | undefined, lastName: string | undefined): string {
  const part = (text: string | undefined) =>
    (text ?? '')
      .normalize('NFKD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '');
  const base = [part(firstName), part(lastName)].filter((p) => p !== '').join('.').slice(0, 28);
  return base.length >= 2 ? base : `user${base}`;
}

export class CreateUser {
  constructor(
    private readonly users: UserStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateUserInput): Promise<E.Either<DomainError, User>> {
    if (!actorHolds(input.actor, Permission.UsersCreate)) return E.left({ _tag: 'NotAuthorized', permission: Permission.UsersCreate });
    const permissions = [...new Set(input.permissions ?? [])];
    const refused =
      checkGrant(input.actor, permissions, []) ??
      checkText('firstname', input.firstName) ??
      checkText('lastname', input.lastName) ??
      checkEmail(input.email) ??
      checkPassword(input.password);
    if (refused) return E.left(refused);
    const explicit = input.username?.trim().toLowerCase();
    if (explicit !== undefined && !USERNAME_PATTERN.test(explicit)) {
      return E.left({
        _tag: 'InvalidBodyParameter',
        names: ['username'],
        details: 'username must be 2-32 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit',
      });
    }

    const now = this.clock.now();
    const base: Omit<User, 'username'> = {
      id: randomUUID(),
      uid: randomBytes(21).toString('base64url'),
      firstName: input.firstName?.trim() || null,
      lastName: input.lastName?.trim() || null,
      displayName: null,
      email: input.email?.trim().toLowerCase() ?? null,
      passwordHash: input.password === undefined ? null : await hashPassword(input.password),
      permissions,
      blocked: false,
      createdAt: now,
      updatedAt: now,
    };
    const derived = usernameFromName(input.firstName, input.lastName);
    // A derived name that is taken gets a number: ada.lovelace, ada.lovelace2, ada.lovelace3, ...
    for (let attempt = 1; attempt <= (explicit === undefined ? MAX_DERIVED_ATTEMPTS : 1); attempt++) {
      const username = explicit ?? (attempt === 1 ? derived : `${derived}${attempt}`);
      const user: User = { ...base, username };
      const inserted = await orOutage(this.users.insert(user), { _tag: 'UserCreateFailed' });
      if (E.isLeft(inserted)) return inserted;
      if (inserted.right.inserted) return E.right(user);
      if (inserted.right.conflict !== 'username' || explicit !== undefined) {
        return E.left({ _tag: 'Conflict', details: `A user with this ${inserted.right.conflict} already exists` });
      }
    }
    return E.left({ _tag: 'Conflict', details: `Too many users are called ${derived}; choose a username` });
  }
}
