import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { invalidInput, missingInput, type DomainError } from '../../domain/errors.js';
import { UsersAndTokensPermission } from './domain/permissions.js';
import type { CreateUser } from './domain/users/create-user.js';
import type { DeleteUser, GetUser, UpdateUser } from './domain/users/manage-users.js';
import { DEFAULT_USER_PAGE, MAX_USER_PAGE, MAX_USER_QUERY_LENGTH, type ListUsers } from './domain/users/list-users.js';
import { MAX_PASSWORD_LENGTH } from './domain/users/password.js';
import type { UserRef } from './domain/users/target-user.js';
import type { User } from '../../domain/identity/user.js';
import { quotaOrNull, quotaView } from './quota-fields.js';
import { viewOfUser } from './domain/users/user-view.js';
import {
  absent,
  jsonFlag,
  matching,
  names,
  secretText,
  text,
  trueOrFalse,
  userUid,
} from '../../platform/http/codecs.js';
import { optional, pageQuery, required } from '../../platform/http/fields.js';
import { defineRoute, json, type Route } from '../../platform/http/route-table.js';

export interface UserRouteDependencies {
  readonly createUser: CreateUser;
  readonly getUser: GetUser;
  readonly updateUser: UpdateUser;
  readonly deleteUser: DeleteUser;
  readonly listUsers: ListUsers;
}

/** `x-uid` names the user acted on; without it, the caller's own user. */
export const uidHeader = { 'x-uid': optional(userUid, 'the uid of the user acted on; default: your own') };
/** The user a request names by its `x-uid` header (the domain's uid field), or the caller's own. */
export const refOf = (uid: string | undefined): UserRef =>
  uid === undefined ? { self: true, fieldNames: { uid: 'x-uid' } } : { uid };

/** Naming a user by username or email, instead of by `x-uid`. */
export const userNameQuery = {
  username: optional(
    matching(/^[A-Za-z0-9][A-Za-z0-9_.-]{1,31}$/, 'a username'),
    'the username of the user acted on, instead of x-uid',
  ),
  email: optional(text(3, 320), 'the email of the user acted on (any case), instead of x-uid'),
};

/**
 * What a request naming its user twice is refused under: the query's fault (400 code 7), as the
 * second name can only come from there, though a body may have an `email` field of its own.
 */
const NAMING_FIELD = 'x-uid, username, email';
const namingPlace = { [NAMING_FIELD]: 'query' } as const;

/** The user a request names by `x-uid`, `?username=` or `?email=` (one at most), or the caller's own. */
export function namedRef(
  uid: string | undefined,
  { username, email }: { username?: string; email?: string },
): E.Either<DomainError, UserRef> {
  const given = [uid, username, email].filter((value) => value !== undefined).length;
  if (given > 1) return E.left(invalidInput(NAMING_FIELD, 'name the user by one of x-uid, username or email'));
  return E.right(username !== undefined ? { username } : email !== undefined ? { email } : refOf(uid));
}

/** A user as clients see it (`UserView`): never the password or its hash. */
export const userView = t.strict({
  id: t.string,
  uid: t.string,
  username: t.string,
  firstname: t.union([t.string, t.null]),
  lastname: t.union([t.string, t.null]),
  fullName: t.union([t.string, t.null]),
  displayname: t.union([t.string, t.null]),
  email: t.union([t.string, t.null]),
  permissions: t.readonlyArray(t.string),
  blocked: t.boolean,
  quota: quotaView,
  createdAt: t.string,
  updatedAt: t.string,
});

const userPage = t.strict({ users: t.readonlyArray(userView), nextCursor: t.union([t.string, t.null]) });

/** A user named by x-uid that does not exist; a store that cannot be written. */
const namedUserErrors = ['UserNotFound', 'MissingHeader'] as const;

/**
 * On an endpoint that acts on no user named by uid, `x-uid` is refused (400/9) rather than
 * ignored: a client sending it means something, and silently doing something else is worse.
 */
export const noUidHeader = { 'x-uid': optional(absent('this endpoint acts on no user named by uid'), 'refused here') };

export function userRoutes(deps: UserRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/user/create',
      permission: UsersAndTokensPermission.UsersCreate,
      summary: 'Create a user (with no permissions until someone grants them)',
      headers: noUidHeader,
      body: {
        firstname: required(text(1, 100), 'first name'),
        lastname: required(text(1, 100), 'last name'),
        email: required(text(3, 320), 'email address, unique regardless of case'),
        password: required(secretText(MAX_PASSWORD_LENGTH), 'password (hashed with scrypt, never returned)'),
        username: optional(text(2, 32), 'user name; default: derived from the name'),
      },
      status: 201,
      response: userView,
      errors: ['Conflict', 'UserCreateFailed'],
      handle: async ({ body, actor }) => {
        const created = await deps.createUser.execute({
          actor: actor,
          firstName: body.firstname,
          lastName: body.lastname,
          email: body.email,
          password: body.password,
          username: body.username,
        });
        return E.map((user: User) => json(viewOfUser(user)))(created);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/user/get',
      permission: null,
      family: 'Users',
      summary: `Read a user: yourself, or anyone with ${UsersAndTokensPermission.UsersRead}`,
      headers: uidHeader,
      query: userNameQuery,
      fieldPlaces: namingPlace,
      response: userView,
      errors: namedUserErrors,
      handle: async ({ headers, query, actor }) => {
        const ref = namedRef(headers['x-uid'], query);
        if (E.isLeft(ref)) return ref;
        return E.map((user: User) => json(viewOfUser(user)))(await deps.getUser.execute(actor, ref.right));
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/user/update',
      permission: null,
      family: 'Users',
      summary: `Update a user: yourself, or anyone with ${UsersAndTokensPermission.UsersUpdate}; perms always need ${UsersAndTokensPermission.UsersPermissions}, blocked ${UsersAndTokensPermission.UsersBlock} (alone, instead of ${UsersAndTokensPermission.UsersUpdate})`,
      headers: uidHeader,
      query: userNameQuery,
      fieldPlaces: namingPlace,
      body: {
        firstname: optional(text(1, 100), 'first name (fullName follows)'),
        lastname: optional(text(1, 100), 'last name (fullName follows)'),
        displayname: optional(text(1, 100), 'display name'),
        email: optional(text(3, 320), 'email address'),
        password: optional(secretText(MAX_PASSWORD_LENGTH), 'new password'),
        perms: optional(names(50), 'the complete new list of permissions'),
        blocked: optional(jsonFlag, 'true blocks the user: their tokens answer 403 code 2 until false unblocks them'),
        quota: optional(
          quotaOrNull,
          `requests a UTC day or calendar month shared by all of the user's tokens, within your own; needs ${UsersAndTokensPermission.UsersUpdate} even on yourself; null: none`,
        ),
      },
      response: t.strict({ updatedUser: userView }),
      errors: [...namedUserErrors, 'MissingBodyParameter', 'InvalidBodyParameter', 'Conflict', 'UserUpdateFailed'],
      handle: async ({ headers, query, body, actor }) => {
        if (Object.values(body).every((value) => value === undefined)) {
          return E.left(
            missingInput('firstname', 'lastname', 'displayname', 'email', 'password', 'perms', 'blocked', 'quota'),
          );
        }
        const ref = namedRef(headers['x-uid'], query);
        if (E.isLeft(ref)) return ref;
        const updated = await deps.updateUser.execute(actor, ref.right, {
          firstName: body.firstname,
          lastName: body.lastname,
          blocked: body.blocked,
          displayName: body.displayname,
          email: body.email,
          password: body.password,
          permissions: body.perms,
          quota: body.quota,
        });
        return E.map((user: User) => json({ updatedUser: viewOfUser(user) }))(updated);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/user/delete',
      permission: null,
      family: 'Users',
      summary: `Delete a user and all of their tokens: yourself, or anyone with ${UsersAndTokensPermission.UsersDelete}`,
      headers: uidHeader,
      query: userNameQuery,
      fieldPlaces: namingPlace,
      response: t.strict({ deleted: t.literal(true), uid: t.string }),
      errors: [...namedUserErrors, 'UserDeleteFailed'],
      handle: async ({ headers, query, actor }) => {
        const ref = namedRef(headers['x-uid'], query);
        if (E.isLeft(ref)) return ref;
        return E.map((user: { uid: string }) => json({ deleted: true as const, uid: user.uid }))(
          await deps.deleteUser.execute(actor, ref.right),
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/user/list',
      permission: UsersAndTokensPermission.UsersRead,
      summary:
        'List users newest first, a page at a time, optionally found by a prefix, whether blocked, or a permission held',
      headers: noUidHeader,
      query: {
        query: optional(
          text(1, MAX_USER_QUERY_LENGTH),
          'a prefix of the username, email, first, last or full name; letter case and accents are ignored',
        ),
        blocked: optional(trueOrFalse, 'only blocked (true) or unblocked (false) users'),
        permission: optional(text(1, 100), 'only users who hold this permission, by itself or through a wildcard'),
        // The cursor is signed (list-cursor.ts): its form here, its signature by the use case.
        ...pageQuery('users', { max: MAX_USER_PAGE, byDefault: DEFAULT_USER_PAGE, cursor: /^[A-Za-z0-9_.-]{1,400}$/ }),
      },
      response: userPage,
      handle: async ({ query, actor }) =>
        E.map(({ users, nextCursor }: { users: readonly User[]; nextCursor: string | null }) =>
          json({ users: users.map(viewOfUser), nextCursor }),
        )(await deps.listUsers.execute(actor, query)),
    }),
  ];
}
