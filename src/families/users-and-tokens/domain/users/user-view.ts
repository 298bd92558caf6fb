import type { Quota } from '../../../../domain/identity/quota.js';
import type { User } from '../../../../domain/identity/user.js';

/** A user as clients see it: never the password or its hash. */
export interface UserView {
  readonly id: string;
  readonly uid: string;
  readonly username: string;
  /** The first and last names as given (`fullName` is both, for the clients that read one). */
  readonly firstname: string | null;
  readonly lastname: string | null;
  readonly fullName: string | null;
  readonly displayname: string | null;
  readonly email: string | null;
  readonly permissions: readonly string[];
  readonly blocked: boolean;
  /** Shared by all of the user's tokens; null: none. */
  readonly quota: Quota | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export function viewOfUser(user: User): UserView {
  const fullName = [user.firstName, user.lastName].filter((part) => part).join(' ');
  return {
    id: user.id,
    uid: user.uid,
    username: user.username,
    firstname: user.firstName,
    lastname: user.lastName,
    fullName: fullName === '' ? null : fullName,
    displayname: user.displayName,
    email: user.email,
    permissions: user.permissions,
    blocked: user.blocked,
    quota: user.quota,
    createdAt: new Date(user.createdAt).toISOString(),
    updatedAt: new Date(user.updatedAt).toISOString(),
  };
}
