import type { Knex } from 'knex';
import type {
  AuditAction,
  AuditChanges,
  AuditEntry,
  AuditOutcome,
  AuditQuery,
  AuditTargetType,
  AuditTrail,
  AuditVia,
  StoredAuditEntry,
} from '../../domain/audit.js';
import { toNumber } from '../persistence/columns.js';
import { appendEvents } from '../events/knex-event-log.js';

export const AUDIT_TABLE = 'audit_entries';

interface AuditRow {
  id: number | string;
  at: number | string;
  action: string;
  actor_uid: string | null;
  actor_username: string | null;
  actor_token_id: string | null;
  via: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  changes: string;
  address: string | null;
  request_id: string | null;
  outcome: string;
  concerns: string | null;
}

const toRow = (entry: AuditEntry): Omit<AuditRow, 'id'> => ({
  at: entry.at,
  action: entry.action,
  actor_uid: entry.actor.uid,
  actor_username: entry.actor.username,
  actor_token_id: entry.actor.tokenId,
  via: entry.actor.via,
  target_type: entry.target.type,
  target_id: entry.target.id,
  target_label: entry.target.label,
  changes: JSON.stringify(entry.changes),
  address: entry.address,
  request_id: entry.requestId,
  outcome: entry.outcome,
  concerns: entry.concerns,
});

const toEntry = (row: AuditRow): StoredAuditEntry => ({
  id: String(row.id),
  at: toNumber(row.at),
  action: row.action as AuditAction,
  actor: { uid: row.actor_uid, username: row.actor_username, tokenId: row.actor_token_id, via: row.via as AuditVia },
  target: { type: row.target_type as AuditTargetType, id: row.target_id, label: row.target_label },
  changes: JSON.parse(row.changes) as AuditChanges,
  address: row.address,
  requestId: row.request_id,
  outcome: row.outcome as AuditOutcome,
  concerns: row.concerns,
});

/**
 * Writes an entry with whatever `db` is: a store's open transaction, so that the entry stands or
 * falls with the change it reports.
 */
export async function appendAuditEntry(db: Knex | Knex.Transaction, entry: AuditEntry | undefined): Promise<void> {
  if (entry === undefined) return;
  await db(AUDIT_TABLE).insert(toRow(entry));
  await appendEvents(db, entry.events);
}

/**
 * Runs `insert` and writes `entry` with it, atomically. On PostgreSQL as one statement (the entry
 * is inserted from the inserted row's CTE), one round trip where a transaction takes four: 200
 * users created at once (tests/contracts/derived-usernames) took 2.2 to 3.1 s here with a
 * transaction each, and once, on a loaded machine, timed out waiting for a connection (pool of
 * 10, 2 s); one statement each, 1.5 to 1.7 s. Elsewhere (SQLite, in process) in a transaction.
 */
export async function insertWithAuditEntry(
  db: Knex,
  insert: (db: Knex | Knex.Transaction) => Knex.QueryBuilder,
  entry: AuditEntry | undefined,
): Promise<void> {
  if (entry === undefined) {
    await insert(db);
    return;
  }
  // An entry announcing events is written in a transaction with them: the one statement below writes one row.
  if (db.client.config.client !== 'pg' || (entry.events?.length ?? 0) > 0) {
    await db.transaction(async (trx) => {
      await insert(trx);
      await appendAuditEntry(trx, entry);
    });
    return;
  }
  const row = toRow(entry);
  const columns = Object.keys(row);
  await db.raw(
    `with inserted as (?) insert into ?? (${columns.map(() => '??').join(', ')}) select ${columns
      .map(() => '?')
      .join(', ')} from inserted`,
    [insert(db).returning(db.raw('1')), AUDIT_TABLE, ...columns, ...Object.values(row)],
  );
}

/** The audit trail in the service's database, beside the rows whose changes it reports. */
export class KnexAuditTrail implements AuditTrail {
  constructor(private readonly db: Knex) {}

  record(entry: AuditEntry): Promise<void> {
    return appendAuditEntry(this.db, entry);
  }

  async list(query: AuditQuery): Promise<StoredAuditEntry[]> {
    const rows = await this.db<AuditRow>(AUDIT_TABLE)
      .modify((select) => {
        if (query.actor !== undefined) void select.where('actor_uid', query.actor);
        if (query.target !== undefined) void select.where('target_id', query.target);
        if (query.action !== undefined) void select.where('action', query.action);
        if (query.from !== undefined) void select.where('at', '>=', query.from);
        if (query.to !== undefined) void select.where('at', '<', query.to);
        if (query.before !== undefined) void select.where('id', '<', Number(query.before));
        if (query.ownedBy !== undefined) {
          const { uid, userId } = query.ownedBy;
          void select.where((own) => void own.where('actor_uid', uid).orWhere('concerns', userId));
        }
      })
      .orderBy('id', 'desc')
      .limit(query.limit);
    return rows.map(toEntry);
  }

  async removeOlderThan(before: number, limit: number): Promise<number> {
    const oldest = this.db(AUDIT_TABLE).where('at', '<', before).orderBy('id').limit(limit).select('id');
    // MySQL-style "delete … limit" is not SQL; the ids are read in the same statement instead.
    return this.db(AUDIT_TABLE).whereIn('id', oldest).delete();
  }
}

/** The platform's migration of the trail (its number is the platform's turn in the global order). */
export const AUDIT_MIGRATION = {
  name: '0014_audit_entries',
  async up(db: Knex): Promise<void> {
    await db.schema.createTable(AUDIT_TABLE, (table) => {
      table.bigIncrements('id');
      table.bigInteger('at').notNullable().index();
      table.string('action', 32).notNullable();
      table.string('actor_uid', 64).nullable();
      table.string('actor_username', 64).nullable();
      table.string('actor_token_id', 64).nullable();
      table.string('via', 8).notNullable();
      table.string('target_type', 16).notNullable();
      table.string('target_id', 64).nullable();
      table.text('target_label').nullable();
      table.text('changes').notNullable();
      table.string('address', 64).nullable();
      table.string('request_id', 64).nullable();
      table.string('outcome', 8).notNullable();
      table.string('concerns', 64).nullable();
      // Each filter reads newest first along its own index.
      table.index(['actor_uid', 'id']);
      table.index(['target_id', 'id']);
      table.index(['concerns', 'id']);
      table.index(['action', 'id']);
    });
  },
  async down(db: Knex): Promise<void> {
    await db.schema.dropTable(AUDIT_TABLE);
  },
};
