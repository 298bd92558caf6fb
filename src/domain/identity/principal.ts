import type { TokenRecord } from './token.js';
import type { User } from './user.js';

/** Who a request acts as once its token has been verified: the token, its user, who issued it, and what it hangs on. */
export interface Principal {
  readonly token: TokenRecord;
  readonly user: User;
  /** Who issued the token for its user, when that was somebody else (`token.issuedBy`). */
  readonly issuer: User | null;
  /**
   * The verified token this one was minted through (`token.issuedThrough`), with its own chain:
   * this one is valid and grants only while that one is and does. Absent or null: it hangs on none.
   */
  readonly through?: Principal | null;
}

/** The principal and every link up the chain it hangs on, nearest first. */
export function linksOf(principal: Principal): Principal[] {
  const links: Principal[] = [];
  for (let link: Principal | null | undefined = principal; link; link = link.through) links.push(link);
  return links;
}

/** Whether the principal's rights follow this user's: as the owner or the issuer of any token of its chain. */
export const dependsOnUser = (principal: Principal, userId: string): boolean =>
  linksOf(principal).some((link) => link.user.id === userId || link.issuer?.id === userId);

/** Whether the principal's token is this token or hangs on it, however far up. */
export const dependsOnToken = (principal: Principal, tokenId: string): boolean =>
  linksOf(principal).some((link) => link.token.id === tokenId);
