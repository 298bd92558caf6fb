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
}
