import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, type Actor } from '../../../../domain/identity/actor.js';
import type { User } from '../../../../domain/identity/user.js';
import { invalidInput, type DomainError } from '../../../../domain/errors.js';
import { orOutage, USER_STORE_DOWN } from '../../../../domain/outage.js';
import { checkPageLimit, pageOf, withLookahead } from '../../../../domain/paging.js';
import { ALL, type PermissionCatalogue } from '../../../../domain/permissions.js';
import { hasControlOrInvisibleCharacter, CONTROL_OR_INVISIBLE_RULE } from '../../../../domain/text.js';
import { UsersAndTokensPermission } from '../permissions.js';
import { makeCursor, readCursor, type ListingFilters } from './list-cursor.js';
import type { UserStore } from './ports.js';
import { foldForSearch } from './user-search.js';
import { MAX_NAME_LENGTH } from './user-rules.js';

export const DEFAULT_USER_PAGE = 20;
export const MAX_USER_PAGE = 100;
/** As long as the longest email: a search is a prefix of a username, an email or a name. */
export const MAX_USER_QUERY_LENGTH = 320;

export interface UserListing {
  /** A prefix of the username, email, first name, last name or full name; case and accents do not count. */
  readonly query?: string;
  readonly blocked?: boolean;
  /** Users who hold it, by itself or through a wildcard that covers it. */
  readonly permission?: string;
  readonly limit?: number;
  /** The `nextCursor` of the page before. */
  readonly cursor?: string;
}

export interface UserPage {
  readonly users: readonly User[];
  /** Null on the last page. */
  readonly nextCursor: string | null;
}

/** The names that grant `permission`: itself, its family's wildcard and `*`. */
export function holdersOf(permission: string): string[] {
  const family = permission.includes('::') ? permission.slice(0, permission.indexOf('::')) : undefined;
  return [...new Set([permission, ...(family === undefined ? [] : [`${family}::*`]), ALL])];
}

export class ListUsers {
  constructor(
    private readonly users: UserStore,
    private readonly permissions: PermissionCatalogue,
  ) {}

  async execute(actor: Actor, listing: UserListing = {}): Promise<E.Either<DomainError, UserPage>> {
    if (!actorHolds(actor, UsersAndTokensPermission.UsersRead))
      return E.left({ _tag: 'NotAuthorized', permission: UsersAndTokensPermission.UsersRead });
    const { query, blocked, permission, limit = DEFAULT_USER_PAGE, cursor } = listing;
    const refused = checkListing(listing, this.permissions);
    if (refused) return E.left(refused);

    const filters: ListingFilters = {
      prefix: query === undefined ? undefined : foldForSearch(query),
      blocked,
      permission,
    };
    const secret = await orOutage(this.users.listingSecret(), USER_STORE_DOWN);
    if (E.isLeft(secret)) return secret;
    const after = cursor === undefined ? undefined : readCursor(secret.right, cursor, filters);
    if (cursor !== undefined && after === undefined)
      return E.left(invalidInput('cursor', 'cursor must be the nextCursor of a page of this same listing'));

    const found = await orOutage(
      this.users.listPage({
        prefix: filters.prefix,
        blocked,
        holdingAnyOf: permission === undefined ? undefined : holdersOf(permission),
        after,
        limit: withLookahead(limit),
      }),
      USER_STORE_DOWN,
    );
    if (E.isLeft(found)) return found;
    const { rows: users, nextCursor } = pageOf(found.right, limit, (last) => makeCursor(secret.right, last, filters));
    return E.right({ users, nextCursor });
  }
}

function checkListing(
  { query, permission, limit }: UserListing,
  catalogue: PermissionCatalogue,
): DomainError | undefined {
  const wrongLimit = limit === undefined ? undefined : checkPageLimit(limit, MAX_USER_PAGE);
  if (wrongLimit) return wrongLimit;
  if (
    query !== undefined &&
    (query.trim() === '' ||
      [...query].length > MAX_USER_QUERY_LENGTH ||
      hasControlOrInvisibleCharacter(query) ||
      /\p{Cs}/u.test(query))
  )
    return invalidInput(
      'query',
      `query must be 1 to ${MAX_USER_QUERY_LENGTH} characters without ${CONTROL_OR_INVISIBLE_RULE} or lone surrogates`,
    );
  if (permission !== undefined && !catalogue.isGrantable(permission))
    return invalidInput('permission', `Unknown permission: ${permission.slice(0, MAX_NAME_LENGTH)}`);
  return undefined;
}
