import type { Knex } from 'knex';
import type {
  TokenChanges,
  TokenInsertResult,
  TokenRotationResult,
  TokenStore,
  TokenUsage,
} from '../../domain/tokens/ports.js';
import type { TokenOrigin, TokenRecord } from '../../../../domain/identity/token.js';
import {
  fromStringList,
  toBoolean,
  toNumber,
  toNumberOrNull,
  toStringList,
} from '../../../../platform/persistence/columns.js';
import { quotaColumns, toQuota } from './quota-columns.js';
import { uniqueViolationColumn } from '../../../../platform/persistence/database.js';
import { holdAdvisoryLock } from '../../../../platform/persistence/advisory-locks.js';
import type { AuditEntry } from '../../../../domain/audit.js';
import { appendAuditEntry } from '../../../../platform/audit/knex-audit-trail.js';

interface TokenRow {
  id: string;
  user_id: string;
  secret_hash: string;
  prefix: string;
  license: string;
  name: string | null;
  scopes: string;
  created_at: number | string;
  expires_at: number | string | null;
  last_used_at: number | string | null;
  uses: number | string;
  disabled: boolean | number;
  issued_by: string | null;
  issued_through: string | null;
  rate_limit_requests: number | string | null;
  rate_limit_per_seconds: number | string | null;
  origin: string;
  allowed_addresses: string | null;
  rotated_to: string | null;
  rotation_ends_at: number | string | null;
  rotated_from: string | null;
  quota_requests: number | string | null;
  quota_per: string | null;
  lineage: string | null;
}

const toRecord = (row: TokenRow): TokenRecord => ({
  id: row.id,
  userId: row.user_id,
  secretHash: row.secret_hash,
  prefix: row.prefix,
  license: row.license,
  name: row.name,
  scopes: toStringList(row.scopes),
  createdAt: toNumber(row.created_at),
  expiresAt: toNumberOrNull(row.expires_at),
  lastUsedAt: toNumberOrNull(row.last_used_at),
  uses: toNumber(row.uses),
  disabled: toBoolean(row.disabled),
  issuedBy: row.issued_by,
  issuedThrough: row.issued_through,
  rateLimit:
    row.rate_limit_requests === null || row.rate_limit_per_seconds === null
      ? null
      : { requests: toNumber(row.rate_limit_requests), perSeconds: toNumber(row.rate_limit_per_seconds) },
  origin: row.origin as TokenOrigin,
  allowedAddresses: row.allowed_addresses === null ? null : toStringList(row.allowed_addresses),
  rotatedTo: row.rotated_to,
  rotationEndsAt: toNumberOrNull(row.rotation_ends_at),
  rotatedFrom: row.rotated_from,
  quota: toQuota(row.quota_requests, row.quota_per),
  lineage: row.lineage,
});

const toRow = (record: TokenRecord): TokenRow => ({
  id: record.id,
  user_id: record.userId,
  secret_hash: record.secretHash,
  prefix: record.prefix,
  license: record.license,
  name: record.name,
  scopes: fromStringList(record.scopes),
  created_at: record.createdAt,
  expires_at: record.expiresAt,
  last_used_at: record.lastUsedAt,
  uses: record.uses,
  disabled: record.disabled,
  issued_by: record.issuedBy,
  issued_through: record.issuedThrough,
  rate_limit_requests: record.rateLimit?.requests ?? null,
  rate_limit_per_seconds: record.rateLimit?.perSeconds ?? null,
  origin: record.origin,
  allowed_addresses: record.allowedAddresses === null ? null : fromStringList(record.allowedAddresses),
  rotated_to: record.rotatedTo,
  rotation_ends_at: record.rotationEndsAt,
  rotated_from: record.rotatedFrom,
  ...quotaColumns(record.quota),
  lineage: record.lineage,
});

const CONFLICTS = { id: 'id', secret_hash: 'secretHash', license: 'license' } as const;

/** Thrown inside an insert's transaction to roll it back with this outcome. */
class InsertRefused extends Error {
  constructor(readonly outcome: TokenInsertResult) {
    super('token insert refused');
  }
}

export class KnexTokenStore implements TokenStore {
  /** PostgreSQL runs transactions side by side: they take row locks; SQLite has one writer at a time. */
  private readonly locksRows: boolean;

  constructor(private readonly db: Knex) {
    this.locksRows = db.client.config.client === 'pg';
  }

  async insert(record: TokenRecord, maxLiveTokens?: number, audit?: AuditEntry): Promise<TokenInsertResult> {
    const row = toRow(record);
    try {
      return await this.db.transaction(async (trx) => {
        // Concurrent inserts for one owner queue on the owner's row, so that each counts the others'.
        if (maxLiveTokens !== undefined && this.locksRows)
          await trx('users').where({ id: record.userId }).select('id').forUpdate();
        // On SQLite the insert comes first: it makes this transaction the writer before anything is read.
        await trx('tokens').insert(row);
        if (record.issuedThrough !== null) {
          // A share lock waits for a deletion of that token in flight, and then finds it gone; a
          // deletion that comes later waits for this insert and then finds it among what hangs on it.
          const reading = trx('tokens').where({ id: record.issuedThrough }).select('id');
          const through = this.locksRows ? reading.forShare() : reading;
          if ((await through.first()) === undefined)
            throw new InsertRefused({ inserted: false, refused: 'issuedThroughGone' });
        }
        if (maxLiveTokens !== undefined && (await liveTokensOf(trx, record.userId, record.createdAt)) > maxLiveTokens)
          throw new InsertRefused({ inserted: false, refused: 'liveTokenLimit' });
        await appendAuditEntry(trx, audit);
        return { inserted: true } as const;
      });
    } catch (error) {
      if (error instanceof InsertRefused) return error.outcome;
      const column = uniqueViolationColumn(error);
      if (column && column in CONFLICTS)
        return { inserted: false, conflict: CONFLICTS[column as keyof typeof CONFLICTS] };
      throw error;
    }
  }

  async findBySecretHash(secretHash: string): Promise<TokenRecord | undefined> {
    const row = await this.db<TokenRow>('tokens').where({ secret_hash: secretHash }).first();
    return row && toRecord(row);
  }

  async findById(id: string): Promise<TokenRecord | undefined> {
    const row = await this.db<TokenRow>('tokens').where({ id }).first();
    return row && toRecord(row);
  }

  async update(id: string, changes: TokenChanges, audit?: AuditEntry): Promise<TokenRecord | undefined> {
    const columns: Partial<TokenRow> = {};
    if (changes.disabled !== undefined) columns.disabled = changes.disabled;
    if (changes.name !== undefined) columns.name = changes.name;
    if (changes.allowedAddresses !== undefined)
      columns.allowed_addresses = changes.allowedAddresses === null ? null : fromStringList(changes.allowedAddresses);
    if (changes.quota !== undefined) Object.assign(columns, quotaColumns(changes.quota));
    // Nothing to change is no change: nothing is written, the entry included.
    if (Object.keys(columns).length === 0) return this.findById(id);
    return this.db.transaction(async (trx) => {
      if ((await trx('tokens').where({ id }).update(columns)) === 0) return undefined;
      await appendAuditEntry(trx, audit);
      const row = await trx<TokenRow>('tokens').where({ id }).first();
      return row && toRecord(row);
    });
  }

  async listByUser(userId: string): Promise<TokenRecord[]> {
    const rows = await this.db<TokenRow>('tokens')
      .where({ user_id: userId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return rows.map(toRecord);
  }

  async expiringBetween(after: number, until: number, limit: number): Promise<TokenRecord[]> {
    const rows = await this.db<TokenRow>('tokens')
      .where({ disabled: false })
      .whereNull('rotated_to')
      .andWhere('expires_at', '>', after)
      .andWhere('expires_at', '<=', until)
      .orderBy([{ column: 'expires_at' }, { column: 'id' }])
      .limit(limit);
    return rows.map(toRecord);
  }

  async delete(id: string, audit?: AuditEntry): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      if (this.locksRows) await holdAdvisoryLock(trx, 'tokenChainDeletes');
      const deleted = (await trx('tokens').where({ id }).delete()) > 0;
      if (deleted) {
        await deleteHangingOn(trx, [id]);
        await appendAuditEntry(trx, audit);
      }
      return deleted;
    });
  }

  async rotate(
    previousId: string,
    replacement: TokenRecord,
    endsAt: number,
    maxLiveTokens?: number,
    audit?: AuditEntry,
  ): Promise<TokenRotationResult> {
    const refused = Symbol('over the live-token limit');
    return this.db
      .transaction(async (trx) => {
        // Rotations and inserts for one owner queue on the owner's row, so that each counts the others'.
        if (maxLiveTokens !== undefined && this.locksRows)
          await trx('users').where({ id: replacement.userId }).select('id').forUpdate();
        // On PostgreSQL a second rotation at the same moment waits for this row and then finds it rotated.
        const marked = await trx('tokens')
          .where({ id: previousId })
          .whereNull('rotated_to')
          .update({ rotated_to: replacement.id, rotation_ends_at: endsAt });
        if (marked === 0) {
          const exists = await trx('tokens').where({ id: previousId }).first('id');
          return { rotated: false, refused: exists === undefined ? 'notFound' : 'alreadyRotated' } as const;
        }
        await trx('tokens').insert(toRow(replacement));
        if (
          maxLiveTokens !== undefined &&
          (await liveTokensOf(trx, replacement.userId, replacement.createdAt, previousId)) > maxLiveTokens
        )
          throw refused;
        await appendAuditEntry(trx, audit);
        const previous = await trx<TokenRow>('tokens').where({ id: previousId }).first();
        return { rotated: true, previous: toRecord(previous!) } as const;
      })
      .catch((error: unknown) => {
        if (error === refused) return { rotated: false, refused: 'liveTokenLimit' } as const;
        throw error;
      });
  }

  async recordUsage(usages: readonly TokenUsage[]): Promise<void> {
    if (usages.length === 0) return;
    await this.db.transaction(async (trx) => {
      for (const { tokenId, uses, lastUsedAt } of usages) {
        await trx('tokens')
          .where({ id: tokenId })
          .update({
            uses: trx.raw('uses + ?', [uses]),
            last_used_at: trx.raw('CASE WHEN last_used_at IS NULL OR last_used_at < ? THEN ? ELSE last_used_at END', [
              lastUsedAt,
              lastUsedAt,
            ]),
          });
      }
    });
  }
}

/**
 * How many of the user's tokens are live at `at`: neither expired nor past the end of a rotation's
 * grace (a rotated token stays stored, refused, until it expires), `except` not counted.
 */
async function liveTokensOf(trx: Knex.Transaction, userId: string, at: number, except?: string): Promise<number> {
  const [counted] = await trx('tokens')
    .where({ user_id: userId })
    .andWhere((live) => void live.whereNull('expires_at').orWhere('expires_at', '>', at))
    .andWhere((live) => void live.whereNull('rotation_ends_at').orWhere('rotation_ends_at', '>', at))
    .modify((query) => void (except === undefined ? query : query.whereNot({ id: except })))
    .count({ live: '*' });
  return toNumber(counted!.live as number | string);
}

/**
 * Deletes the user's tokens of this origin and whatever hangs on them, in the caller's transaction
 * (which on PostgreSQL holds the token-chain lock); answers the ids of those of that origin.
 */
export async function deleteTokensOfOrigin(
  trx: Knex.Transaction,
  userId: string,
  origin: TokenOrigin,
): Promise<string[]> {
  const ids: string[] = await trx('tokens').where({ user_id: userId, origin }).pluck('id');
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    await trx('tokens')
      .whereIn('id', ids.slice(start, start + IDS_PER_STATEMENT))
      .delete();
  }
  await deleteHangingOn(trx, ids);
  return ids;
}

/** Bound parameters per statement, well below every database's limit. */
const IDS_PER_STATEMENT = 500;

/**
 * Deletes, level by level, every token minted through one of `deletedIds`, and what was minted
 * through those. Each level is read by a statement of its own, after the level above was deleted:
 * on PostgreSQL it then sees a token inserted through one of them by a transaction it waited for.
 */
export async function deleteHangingOn(trx: Knex.Transaction, deletedIds: readonly string[]): Promise<void> {
  let level = [...deletedIds];
  while (level.length > 0) {
    const next: string[] = [];
    for (let start = 0; start < level.length; start += IDS_PER_STATEMENT) {
      const ids = level.slice(start, start + IDS_PER_STATEMENT);
      next.push(...(await trx('tokens').whereIn('issued_through', ids).pluck('id')));
    }
    for (let start = 0; start < next.length; start += IDS_PER_STATEMENT) {
      await trx('tokens')
        .whereIn('id', next.slice(start, start + IDS_PER_STATEMENT))
        .delete();
    }
    level = next;
  }
}
