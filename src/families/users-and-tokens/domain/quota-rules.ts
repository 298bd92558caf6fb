import { actorUser, type Actor } from '../../../domain/identity/actor.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import { describeQuota, withinQuota, type Quota } from '../../../domain/identity/quota.js';
import type { User } from '../../../domain/identity/user.js';

/** The quotas the actor's own requests are counted under: its token's and its user's, where they exist. */
function actorQuotas(actor: Actor): { readonly whose: string; readonly quota: Quota }[] {
  const quotas: { whose: string; quota: Quota }[] = [];
  if (actor.kind === 'principal' && actor.principal.token.quota !== null)
    quotas.push({ whose: "your token's own", quota: actor.principal.token.quota });
  const user = actorUser(actor);
  if (user?.quota) quotas.push({ whose: "your user's", quota: user.quota });
  return quotas;
}

/**
 * Nobody gives a quota larger than their own: the quota asked for (null: none at all) stays
 * within the caller token's, the caller's user's and, for a token, its owner's (`owner`). The
 * operator at the command line has none.
 */
export function checkQuota(actor: Actor, asked: Quota | null | undefined, owner?: User): DomainError | undefined {
  if (asked === undefined) return undefined;
  const ceilings = actorQuotas(actor);
  if (owner?.quota) ceilings.push({ whose: "its owner's", quota: owner.quota });
  const exceeded = ceilings.find(({ quota }) => !withinQuota(asked, quota));
  if (exceeded === undefined) return undefined;
  const what = asked === null ? 'quota may not be removed' : 'quota may not exceed';
  return invalidInput('quota', `${what} ${exceeded.whose}, ${describeQuota(exceeded.quota)}`);
}

/** A token with a quota of its own passes it on to the tokens it issues, so none outspends it. */
export const ownQuotaOf = (actor: Actor): Quota | null =>
  actor.kind === 'principal' ? actor.principal.token.quota : null;
