import type { Quota } from './quota.js';
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
   * The user whose token minted this one, when it hangs on that token: it was issued for somebody
   * else, or through a token that itself hangs on another. Such a token acts on its owner only
   * within its permissions: it never counts as the owner acting on themself.
   */
  readonly issuedBy: string | null;
  /**
   * The token this one was minted through, when it hangs on it (null for the owner's own tokens,
   * those the operator issued, and those issued for others before chains were recorded). It lives
   * and grants only while every token up that chain does: deleting one deletes what hangs on it.
   */
  readonly issuedThrough: string | null;
  /** Its own request rate limit; null: the installation's default policy applies. */
  readonly rateLimit: RateLimit | null;
  /** How many requests it may make a day or a month (its user's quota counts them too); null: none of its own. */
  readonly quota: Quota | null;
  /** How it was issued: a password login's tokens are sessions, which a change of password ends. */
  readonly origin: TokenOrigin;
  /** The client networks (CIDR) it may be used from; null: from anywhere. */
  readonly allowedAddresses: readonly string[] | null;
  /** The token that replaced this one by rotation; it stops at `rotationEndsAt`. */
  readonly rotatedTo: string | null;
  /** When a rotated token stops: from then on it is unknown (401 code 4), as an expired one is. */
  readonly rotationEndsAt: number | null;
  /** The token this one replaced by rotation. */
  readonly rotatedFrom: string | null;
  /**
   * The first token of the rotations this one came from (null when it replaced none): its quota is
   * counted under that one's id, so that rotating a token does not give it a fresh count.
   */
  readonly lineage: string | null;
}

/** The id a token's own quota is counted under: the first of the rotations it came from. */
export const lineageOf = (record: TokenRecord): string => record.lineage ?? record.id;

/**
 * `password`: issued to a password login (a session); `cli`: by the operator at the command line;
 * `token`: with another token, and every token issued before origins were recorded.
 */
export type TokenOrigin = 'password' | 'token' | 'cli';
export const TOKEN_ORIGINS: readonly TokenOrigin[] = ['password', 'token', 'cli'];

/** The moment the token stops by itself, its expiry or the end of its rotation's grace, whichever is first. */
export function endOf(record: TokenRecord): number | null {
  if (record.rotationEndsAt === null) return record.expiresAt;
  return record.expiresAt === null ? record.rotationEndsAt : Math.min(record.expiresAt, record.rotationEndsAt);
}

/** Whether the token lives by somebody's other token (or, recorded before chains were, by its issuer) rather than as its owner's own. */
export const hangsOnAnother = (record: TokenRecord): boolean =>
  record.issuedBy !== null || record.issuedThrough !== null;
