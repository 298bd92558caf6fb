import type { Knex } from 'knex';

/**
 * PostgreSQL's advisory locks, each under a key of its own, all listed here so that no two uses
 * share one by accident. Each is held until its transaction ends, but `migrations`, which a
 * session holds for as long as it migrates.
 */
export const ADVISORY_LOCKS = {
  /**
   * A sender's quota counted and their message written as one step, not interleaved with another
   * instance's (see KnexOutbox). One lock for every sender: a lock per sender, taken by group
   * commits in whatever order their acceptances came, could deadlock two instances.
   */
  mailQuota: 0x6d61696c,
  /**
   * The deletions of token chains, one at a time: a token's deletion locks its chain from the top
   * down, a user's the rows of their tokens in the table's order, and two of them at once
   * deadlocked on a chain whose middle link had been used (its row rewritten further on).
   */
  tokenChainDeletes: 0x746f6b6e,
  /**
   * One process at a time runs Knex's migrator on a schema (the second key is the schema's name,
   * hashed): Knex creates its bookkeeping tables and the lock row unguarded, and two processes
   * started together on a fresh schema could both insert the row; every later lock then found two
   * rows and failed, and each start waited out its minute (see migrateToLatest).
   */
  migrations: 0x6d696772,
} as const;

export async function holdAdvisoryLock(trx: Knex.Transaction, lock: keyof typeof ADVISORY_LOCKS): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(?)', [ADVISORY_LOCKS[lock]]);
}
