import { grantedBy } from '../permissions.js';
import { hangsOnAnother } from './token.js';
import type { User } from './user.js';
import type { Principal } from './principal.js';
import type { RequestOrigin } from '../audit.js';

/**
 * Who asks a management use case: a token holder over HTTP, a user who has just proved their
 * password (to be issued a token of their own), or the operator at the CLI, who stands for the
 * installation itself and holds every permission.
 */
export type Actor =
  | { readonly kind: 'principal'; readonly principal: Principal; readonly origin?: RequestOrigin }
  | { readonly kind: 'password'; readonly user: User; readonly origin?: RequestOrigin }
  | { readonly kind: 'operator' };

export const OPERATOR: Actor = { kind: 'operator' };
/** `origin`: where the request came from, for the audit trail. */
export const actorFor = (principal: Principal, origin?: RequestOrigin): Actor => ({
  kind: 'principal',
  principal,
  origin,
});

/**
 * A token holder holds a permission when the token's scopes, its user and, for a token issued by
 * somebody else, that issuer all grant it, and so does every token up the chain it was minted
 * through: nobody lends more than they hold at this moment, however many hands it passed.
 */
export function principalHolds(principal: Principal, permission: string): boolean {
  if (!principal.through) return linkHolds(principal, permission);
  // A principal is a snapshot (a change makes a new one), so what its chain grants is worked out once per permission.
  let verdicts = chainVerdicts.get(principal);
  if (!verdicts) chainVerdicts.set(principal, (verdicts = new Map()));
  let held = verdicts.get(permission);
  if (held === undefined) {
    held = true;
    for (let link: Principal | null | undefined = principal; link && held; link = link.through)
      held = linkHolds(link, permission);
    verdicts.set(permission, held);
  }
  return held;
}

const chainVerdicts = new WeakMap<Principal, Map<string, boolean>>();

function linkHolds({ token, user, issuer }: Principal, permission: string): boolean {
  return (
    grantedBy(token.scopes, permission) &&
    grantedBy(user.permissions, permission) &&
    (issuer === null || grantedBy(issuer.permissions, permission))
  );
}

export function actorHolds(actor: Actor, permission: string): boolean {
  switch (actor.kind) {
    case 'operator':
      return true;
    case 'password':
      return grantedBy(actor.user.permissions, permission);
    case 'principal':
      return principalHolds(actor.principal, permission);
  }
}

/** The first of `permissions` the actor does not hold (wildcards compared as wholes), if any. */
export const firstNotHeld = (actor: Actor, permissions: readonly string[]): string | undefined =>
  permissions.find((permission) => !actorHolds(actor, permission));

/** The user behind the actor, whether or not it may act on them as themself; none for the operator. */
export function actorUser(actor: Actor): User | undefined {
  switch (actor.kind) {
    case 'operator':
      return undefined;
    case 'password':
      return actor.user;
    case 'principal':
      return actor.principal.user;
  }
}

/**
 * The user an actor may act on as themself, if any: the token's owner, unless the token hangs on
 * another (then it acts on its owner only within its permissions, like on anyone).
 */
export function actorUserId(actor: Actor): string | undefined {
  if (actor.kind === 'principal') return hangsOnAnother(actor.principal.token) ? undefined : actor.principal.user.id;
  return actorUser(actor)?.id;
}

/** The token the actor presented, if it came with one. */
export const callingTokenId = (actor: Actor): string | undefined =>
  actor.kind === 'principal' ? actor.principal.token.id : undefined;
