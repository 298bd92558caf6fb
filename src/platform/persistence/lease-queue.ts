import type { Knex } from 'knex';

/**
 * The durable work queue's claim, shared by every queue the service keeps in its database (the
 * mail outbox, webhook deliveries): rows waiting with a status, due at a time, taken by a worker
 * for a lease (`lease_owner`, `lease_until`). A worker that dies holding rows leaves them to be
 * claimed again once the lease ends: at least once, never lost.
 */
export interface LeaseQueue {
  readonly table: string;
  /** The column and value of a row waiting for an attempt (`status = 'queued'`). */
  readonly status: string;
  readonly waiting: string;
  /** When a waiting row is due. */
  readonly dueAt: string;
  /** The order rows are claimed in: due first, then by these. */
  readonly order: readonly string[];
}

/** What a claim asks: who, when, until when, how many. */
export interface LeaseClaim {
  readonly worker: string;
  readonly now: number;
  readonly leaseUntil: number;
  readonly limit: number;
}

/** The columns of a row no worker holds. */
export const NO_LEASE = { lease_owner: null, lease_until: null };

/** Waiting rows that are due and whose lease, if any, has ended. */
export const dueRows = (db: Knex | Knex.Transaction, queue: LeaseQueue, now: number): Knex.QueryBuilder =>
  db(queue.table)
    .where(queue.status, queue.waiting)
    .andWhere(queue.dueAt, '<=', now)
    .andWhere((lease) => void lease.whereNull('lease_until').orWhere('lease_until', '<=', now));

/** Whether any row is due: a read, without the write lock (SQLite's one writer) or a transaction. */
export const anyDue = async (db: Knex, queue: LeaseQueue, now: number): Promise<boolean> =>
  (await dueRows(db, queue, now).first('id')) !== undefined;

/**
 * Takes up to `limit` due rows for `worker` until `leaseUntil`, in one
 * `UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING *`; on PostgreSQL the SELECT takes its rows
 * `FOR UPDATE SKIP LOCKED`, so that instances claiming at once pass over each other's rows
 * instead of waiting for them or taking them twice. SQLite has one writer at a time. The rows
 * come back in no particular order.
 */
export async function claimDue<Row>(
  trx: Knex.Transaction,
  queue: LeaseQueue,
  { worker, now, leaseUntil, limit }: LeaseClaim,
): Promise<Row[]> {
  const due = dueRows(trx, queue, now)
    .select('id')
    .orderBy([queue.dueAt, ...queue.order].map((column) => ({ column })))
    .limit(limit);
  if (trx.client.config.client === 'pg') void due.forUpdate().skipLocked();
  return (await trx(queue.table)
    .whereIn('id', due)
    .update({ lease_owner: worker, lease_until: leaseUntil })
    .returning('*')) as Row[];
}

/** Gives back a worker's rows (those of `ids`, or all), to be claimed at once by anyone. */
export const releaseLeases = (
  trx: Knex | Knex.Transaction,
  queue: LeaseQueue,
  worker: string,
  ids?: readonly string[],
): Promise<number> => {
  const held = trx(queue.table).where({ lease_owner: worker });
  if (ids !== undefined) void held.whereIn('id', ids);
  return held.update(NO_LEASE);
};
