import { grantedBy } from '../permissions.js';
import type { Principal } from './verified-token-cache.js';

/**
 * Who asks a management use case: a token holder over HTTP, or the operator at the CLI, who
 * stands for the installation itself and holds every permission.
 */
export type Actor = { readonly kind: 'principal'; readonly principal: Principal } | { readonly kind: 'operator' };

export const OPERATOR: Actor = { kind: 'operator' };
export const actorFor = (principal: Principal): Actor => ({ kind: 'principal', principal });

/** A token holder holds a permission when both the token's scopes and its user grant it. */
export function principalHolds(principal: Principal, permission: string): boolean {
  return grantedBy(principal.token.scopes, permission) && grantedBy(principal.user.permissions, permission);
}

export function actorHolds(actor: Actor, permission: string): boolean {
  return actor.kind === 'operator' || principalHolds(actor.principal, permission);
}

/**
 * The user an actor may act on as themself, if any: the token's owner, unless somebody else
 * issued the token (then it acts on its owner only within its permissions, like on anyone).
 */
export const actorUserId = (actor: Actor): string | undefined =>
  actor.kind === 'principal' && actor.principal.token.issuedBy === null ? actor.principal.user.id : undefined;
