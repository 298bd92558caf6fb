import type { Quota } from './quota.js';

export interface User {
  /** Internal identifier, stable for the life of the record. */
  readonly id: string;
  /** Public identifier that clients use to name a user (the `x-uid` header). */
  readonly uid: string;
  readonly username: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly displayName: string | null;
  /** Stored lower-cased, so uniqueness is case-insensitive. */
  readonly email: string | null;
  readonly passwordHash: string | null;
  readonly permissions: readonly string[];
  readonly blocked: boolean;
  /** How many requests all of the user's tokens together may make a day or a month; null: no quota. */
  readonly quota: Quota | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type UserChanges = Partial<
  Pick<User, 'firstName' | 'lastName' | 'displayName' | 'email' | 'passwordHash' | 'permissions' | 'blocked' | 'quota'>
>;

/** Usernames are what people type in the CLI: short, lower-case, no spaces. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9_.-]{1,31}$/;
