import type { Knex } from 'knex';

/**
 * Whether a write must be on disk before its promise resolves: an acceptance someone is told of
 * (a 202) must; bookkeeping that can be redone if lost (a lease taken, an attempt's outcome) need not.
 */
export type Durability = 'durable' | 'relaxed';

interface Pending {
  readonly work: (trx: Knex.Transaction) => Promise<unknown>;
  readonly durability: Durability;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Transact = (work: (trx: Knex.Transaction) => Promise<unknown[]>) => Promise<unknown[]>;

/** Writes one transaction takes at most: enough to share a commit widely, few enough to keep it short. */
const MAX_WRITES_PER_COMMIT = 256;

/** SQLite's `synchronous` levels as PRAGMA reads them. */
const SQLITE_NORMAL = 1;

interface SqliteConnection {
  pragma(statement: string, options?: { simple: true }): unknown;
}

/**
 * A transaction whose commit does not wait for the disk. SQLite: `synchronous = NORMAL` for it
 * alone (in WAL mode the commit is still atomic and survives the process dying; the next flush,
 * any durable commit's, makes it durable too), on a connection held throughout so that no other
 * transaction commits under that setting. PostgreSQL: `synchronous_commit = off` for it alone.
 */
function relaxedTransaction(db: Knex): Transact {
  if (db.client.config.client === 'pg') {
    return (work) =>
      db.transaction(async (trx) => {
        await trx.raw('SET LOCAL synchronous_commit TO OFF');
        return work(trx);
      });
  }
  return async (work) => {
    const connection = (await db.client.acquireConnection()) as SqliteConnection;
    const configured = Number(connection.pragma('synchronous', { simple: true }));
    try {
      if (configured > SQLITE_NORMAL) connection.pragma(`synchronous = ${SQLITE_NORMAL}`);
      return await db.transaction(work, { connection });
    } finally {
      if (configured > SQLITE_NORMAL) connection.pragma(`synchronous = ${configured}`);
      await db.client.releaseConnection(connection);
    }
  };
}

/**
 * Writes that share commits ("group commit"). A commit costs a disk flush (SQLite's fsync, which
 * holds the thread meanwhile), which dwarfs the writes themselves; so while one transaction
 * commits, the writes that arrive wait and then go together into the next. Each write's promise
 * settles only once the transaction that holds it has committed (or failed), so for a durable
 * write "resolved" means "on disk". A transaction holding only relaxed writes commits without
 * waiting for the disk.
 *
 * When a shared transaction fails, its writes are tried again one transaction each, so that one
 * bad write fails alone rather than taking its neighbours with it.
 */
export class GroupCommit {
  private pending: Pending[] = [];
  private committing = false;
  private readonly relaxed: Transact;

  constructor(private readonly db: Knex) {
    this.relaxed = relaxedTransaction(db);
  }

  run<A>(work: (trx: Knex.Transaction) => Promise<A>, durability: Durability): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      this.pending.push({ work, durability, resolve: resolve as (value: unknown) => void, reject });
      if (this.committing) return;
      this.committing = true;
      // Not at once: the requests already read in this turn of the event loop reach here too
      // before the first transaction begins.
      setImmediate(() => void this.commitAll());
    });
  }

  private transact(batch: readonly Pending[]): Promise<unknown[]> {
    const work = async (trx: Knex.Transaction) => {
      const done: unknown[] = [];
      for (const { work: write } of batch) done.push(await write(trx));
      return done;
    };
    return batch.some((write) => write.durability === 'durable') ? this.db.transaction(work) : this.relaxed(work);
  }

  private async commitAll(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_WRITES_PER_COMMIT);
      try {
        const results = await this.transact(batch);
        batch.forEach(({ resolve }, index) => resolve(results[index]));
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else
          await Promise.all(
            batch.map((write) => this.transact([write]).then(([result]) => write.resolve(result), write.reject)),
          );
      }
    }
    this.committing = false;
  }
}
