import type { RateLimit } from './rate-limit.js';

export interface TokenRecord {
  readonly id: string;
  readonly userId: string;
  /** Hex SHA-256 of the whole secret; the secret itself is never stored. */
  readonly secretHash: string;
  /** The first characters of the secret, enough for a person to recognise it. */
  readonly prefix: string;
  /** Human-readable key identifier, unique, never the secret. */
  readonly license: string;
  readonly name: string | null;
  /** What the token may do, below its user's permissions (both must grant). */
  readonly scopes: readonly string[];
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly lastUsedAt: number | null;
  readonly uses: number;
  readonly disabled: boolean;
  /**
   * The user who issued the token for its owner, when that was somebody else. Such a token acts
   * on its owner only within its permissions: it never counts as the owner acting on themself.
   */
  readonly issuedBy: string | null;
  /** Its own request rate limit; null: the installation's default policy applies. */
  readonly rateLimit: RateLimit | null;
}
