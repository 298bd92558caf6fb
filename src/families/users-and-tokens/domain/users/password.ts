export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase, short enough that hashing cannot be used to burn our CPU. */
export const MAX_PASSWORD_LENGTH = 256;

/**
 * log2 of scrypt's N for new hashes (see the `Passwords` port's scrypt adapter). 15 (32 MiB, tens
 * of milliseconds) is what production gets and may not go below; only tests, which hash hundreds
 * of passwords, choose less. Plain numbers, for the settings that choose the cost.
 */
export const STANDARD_PASSWORD_COST = 15;
export const LOWEST_PASSWORD_COST = 4;
export const HIGHEST_PASSWORD_COST = 20;
