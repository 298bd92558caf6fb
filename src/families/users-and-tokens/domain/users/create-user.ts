import { auditEntry, changesBetween, SECRET_CHANGED, type AuditEntry } from '../../../../domain/audit.js';
import { userAuditFields, userTarget } from '../audit-views.js';
import type { PermissionCatalogue } from '../../../../domain/permissions.js';
import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, type Actor } from '../../../../domain/identity/actor.js';
import { invalidInput, type DomainError } from '../../../../domain/errors.js';
import { orOutage } from '../../../../domain/outage.js';
import { UsersAndTokensPermission } from '../permissions.js';
import type { Clock, Randomness } from '../../../../domain/ports.js';
import type { Passwords, UserStore } from './ports.js';
import { USERNAME_PATTERN, type User } from '../../../../domain/identity/user.js';
import { checkEmail, checkGrant, checkPassword, checkText } from './user-rules.js';
import { foldForSearch } from './user-search.js';

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

/**
 * Numbered names tried before a random suffix: under concurrency every creator reads the same
 * highest number and only one of them gets the next, so the rest soon stop queueing for it.
 */
const NUMBERED_ATTEMPTS = 3;
/** 36^5 suffixes: ten misses in a row do not happen; the limit only keeps a broken store from looping. */
const RANDOM_ATTEMPTS = 10;
const RANDOM_SUFFIX_LENGTH = 5;
const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** The longest USERNAME_PATTERN allows, which a made-up name must keep to as a chosen one does. */
const MAX_USERNAME_LENGTH = 32;

/** The next free number after `base` among `taken` usernames: 2 for the second user of a name. */
export function nextUsernameNumber(base: string, taken: readonly string[]): number {
  let highest = 1;
  for (const username of taken) {
    const suffix = username.slice(base.length);
    if (username.startsWith(base) && /^[1-9][0-9]{0,8}$/.test(suffix)) highest = Math.max(highest, Number(suffix));
  }
  return highest + 1;
}

/** `base` cut to leave room for `-` and a random suffix: `con.current-k3x9q`. */
function withRandomSuffix(base: string, randomness: Randomness): string {
  const suffix = Array.from(
    randomness.bytes(RANDOM_SUFFIX_LENGTH),
    (byte) => SUFFIX_ALPHABET[byte % SUFFIX_ALPHABET.length],
  ).join('');
  return `${base.slice(0, MAX_USERNAME_LENGTH - RANDOM_SUFFIX_LENGTH - 1)}-${suffix}`;
}

/** "Zoë O'Brien" → "zoe.obrien": what a person would type, from what they are called. */
export function usernameFromName(firstName: string | undefined, lastName: string | undefined): string {
  const part = (text: string | undefined) => foldForSearch(text ?? '').replace(/[^a-z0-9]+/g, '');
  const base = [part(firstName), part(lastName)]
    .filter((p) => p !== '')
    .join('.')
    .slice(0, 28);
  return base.length >= 2 ? base : `user${base}`;
}

export class CreateUser {
  constructor(
    private readonly users: UserStore,
    private readonly clock: Clock,
    private readonly randomness: Randomness,
    private readonly passwords: Passwords,
    private readonly permissions: PermissionCatalogue,
  ) {}

  async execute(input: CreateUserInput): Promise<E.Either<DomainError, User>> {
    if (!actorHolds(input.actor, UsersAndTokensPermission.UsersCreate))
      return E.left({ _tag: 'NotAuthorized', permission: UsersAndTokensPermission.UsersCreate });
    const permissions = [...new Set(input.permissions ?? [])];
    const refused =
      checkGrant(input.actor, permissions, [], this.permissions) ??
      checkText('firstname', input.firstName) ??
      checkText('lastname', input.lastName) ??
      checkEmail(input.email) ??
      checkPassword(input.password);
    if (refused) return E.left(refused);
    const explicit = input.username?.trim().toLowerCase();
    if (explicit !== undefined && !USERNAME_PATTERN.test(explicit)) {
      return E.left(
        invalidInput(
          'username',
          'username must be 2-32 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit',
        ),
      );
    }

    const now = this.clock.now();
    const base: Omit<User, 'username'> = {
      id: this.randomness.uuid(),
      uid: this.randomness.bytes(21).toString('base64url'),
      firstName: input.firstName?.trim() || null,
      lastName: input.lastName?.trim() || null,
      displayName: null,
      email: input.email?.trim().toLowerCase() ?? null,
      passwordHash: input.password === undefined ? null : await this.passwords.hash(input.password),
      permissions,
      blocked: false,
      quota: null,
      createdAt: now,
      updatedAt: now,
    };
    const record = (username: string): User => ({ ...base, username });
    const insert = (user: User) =>
      this.insert(
        user,
        auditEntry(input.actor, this.clock.now(), 'user.create', userTarget(user), user.id, {
          ...changesBetween({}, userAuditFields(user)),
          ...(input.password === undefined ? {} : { password: SECRET_CHANGED }),
        }),
      );
    if (explicit !== undefined) {
      const inserted = await insert(record(explicit));
      return inserted === 'username taken' ? E.left(conflictOn('username')) : inserted;
    }

    // A derived name that is taken gets the next number (ada.lovelace, ada.lovelace2, ...); when
    // those keep being taken by creators racing for the same name, a random suffix. Never a 409.
    const derived = usernameFromName(input.firstName, input.lastName);
    let candidate = derived;
    for (let attempt = 1; attempt <= NUMBERED_ATTEMPTS + RANDOM_ATTEMPTS; attempt++) {
      const inserted = await insert(record(candidate));
      if (inserted !== 'username taken') return inserted;
      let numbered: string | undefined;
      if (attempt < NUMBERED_ATTEMPTS) {
        const taken = await orOutage(this.users.usernamesStartingWith(derived), { _tag: 'UserCreateFailed' });
        if (E.isLeft(taken)) return taken;
        numbered = `${derived}${nextUsernameNumber(derived, taken.right)}`;
      }
      candidate =
        numbered !== undefined && numbered.length <= MAX_USERNAME_LENGTH
          ? numbered
          : withRandomSuffix(derived, this.randomness);
    }
    return E.left({ _tag: 'UserCreateFailed' });
  }

  /** Stores the user; a taken username is told apart, for the caller to decide what it means. */
  private async insert(user: User, entry: AuditEntry): Promise<E.Either<DomainError, User> | 'username taken'> {
    const inserted = await orOutage(this.users.insert(user, entry), { _tag: 'UserCreateFailed' });
    if (E.isLeft(inserted)) return inserted;
    if (inserted.right.inserted) return E.right(user);
    return inserted.right.conflict === 'username' ? 'username taken' : E.left(conflictOn(inserted.right.conflict));
  }
}

const conflictOn = (field: string): DomainError => ({
  _tag: 'Conflict',
  details: `A user with this ${field} already exists`,
});
