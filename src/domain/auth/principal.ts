import type { TokenRecord } from '../tokens/token.js';
import type { User } from '../users/user.js';

/** Who a request acts as once its token has been verified: the token, its user, and who issued it. */
export interface Principal {
  readonly token: TokenRecord;
  readonly user: User;
  /** Who issued the token for its user, when that was somebody else (`token.issuedBy`). */
  readonly issuer: User | null;
}
