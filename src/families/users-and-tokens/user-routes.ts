import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { missingInput } from '../../domain/errors.js';
import { UsersAndTokensPermission } from './domain/permissions.js';
import type { CreateUser } from './domain/users/create-user.js';
import type { DeleteUser, GetUser, UpdateUser } from './domain/users/manage-users.js';
import { MAX_PASSWORD_LENGTH } from './domain/users/password.js';
import type { UserRef } from './domain/users/target-user.js';
import type { User } from '../../domain/identity/user.js';
import { quotaOrNull, quotaView } from './quota-fields.js';
import { viewOfUser } from './domain/users/user-view.js';
import { described, names, secretText, text, userUid } from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, json, type Route } from '../../platform/http/route-table.js';

export interface UserRouteDependencies {
  readonly createUser: CreateUser;
  readonly getUser: GetUser;
  readonly updateUser: UpdateUser;
  readonly deleteUser: DeleteUser;
}

/** `x-uid` names the user acted on; without it, the caller's own user. */
export const uidHeader = { 'x-uid': optional(userUid, 'the uid of the user acted on; default: your own') };
/** The user a request names by its `x-uid` header (the domain's uid field), or the caller's own. */
export const refOf = (uid: string | undefined): UserRef =>
  uid === undefined ? { self: true, fieldNames: { uid: 'x-uid' } } : { uid };

/** A value no request may give: for a header that means something elsewhere but not here. */
const absent = (why: string) =>
  described(
    new t.Type<never, string, unknown>(
      `absent (${why})`,
      (_u): _u is never => false,
      (u, c) => t.failure(u, c),
      (never) => never,
    ),
    { not: {} },
  );

/** A user as clients see it (`UserView`): never the password or its hash. */
export const userView = t.strict({
  id: t.string,
  uid: t.string,
  username: t.string,
  fullName: t.union([t.string, t.null]),
  displayname: t.union([t.string, t.null]),
  email: t.union([t.string, t.null]),
  permissions: t.readonlyArray(t.string),
  blocked: t.boolean,
  quota: quotaView,
  createdAt: t.string,
  updatedAt: t.string,
});

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
      response: userView,
      errors: namedUserErrors,
      handle: async ({ headers, actor }) =>
        E.map((user: User) => json(viewOfUser(user)))(await deps.getUser.execute(actor, refOf(headers['x-uid']))),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/user/update',
      permission: null,
      family: 'Users',
      summary: `Update a user: yourself, or anyone with ${UsersAndTokensPermission.UsersUpdate}; perms always need ${UsersAndTokensPermission.UsersPermissions}`,
      headers: uidHeader,
      body: {
        displayname: optional(text(1, 100), 'display name'),
        email: optional(text(3, 320), 'email address'),
        password: optional(secretText(MAX_PASSWORD_LENGTH), 'new password'),
        perms: optional(names(50), 'the complete new list of permissions'),
        quota: optional(
          quotaOrNull,
          `requests a UTC day or calendar month shared by all of the user's tokens, within your own; needs ${UsersAndTokensPermission.UsersUpdate} even on yourself; null: none`,
        ),
      },
      response: t.strict({ updatedUser: userView }),
      errors: [...namedUserErrors, 'MissingBodyParameter', 'InvalidBodyParameter', 'Conflict', 'UserUpdateFailed'],
      handle: async ({ headers, body, actor }) => {
        if (Object.values(body).every((value) => value === undefined)) {
          return E.left(missingInput('displayname', 'email', 'password', 'perms', 'quota'));
        }
        const updated = await deps.updateUser.execute(actor, refOf(headers['x-uid']), {
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
      response: t.strict({ deleted: t.literal(true), uid: t.string }),
      errors: [...namedUserErrors, 'UserDeleteFailed'],
      handle: async ({ headers, actor }) =>
        E.map((user: { uid: string }) => json({ deleted: true as const, uid: user.uid }))(
          await deps.deleteUser.execute(actor, refOf(headers['x-uid'])),
        ),
    }),
  ];
}
