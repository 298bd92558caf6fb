import type { Knex } from 'knex';
import type { TokenChanges, TokenInsertResult, TokenStore, TokenUsage } from '../../../domain/tokens/ports.js';
import type { TokenRecord } from '../../../domain/tokens/token.js';
import { fromStringList, toBoolean, toNumber, toNumberOrNull, toStringList } from './columns.js';
import { uniqueViolationColumn } from './database.js';

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
  rate_limit_requests: number | string | null;
  rate_limit_per_seconds: number | string | null;
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
  rateLimit: row.rate_limit_requests === null || row.rate_limit_per_seconds === null ? null : { requests: toNumber(row.rate_limit_requests), perSeconds: toNumber(row.rate_limit_per_seconds) },
});

const CONFLICTS = { id: 'id', secret_hash: 'secretHash', license: 'license' } as const;

export class KnexTokenStore implements TokenStore {
  constructor(private readonly db: Knex) {}

  async insert(record: TokenRecord): Promise<TokenInsertResult> {
    const row: TokenRow = {
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
      rate_limit_requests: record.rateLimit?.requests ?? null,
      rate_limit_per_seconds: record.rateLimit?.perSeconds ?? null,
    };
    try {
      await this.db('tokens').insert(row);
      return { inserted: true };
    } catch (error) {
      const column = uniqueViolationColumn(error);
      if (column && column in CONFLICTS) return { inserted: false, conflict: CONFLICTS[column as keyof typeof CONFLICTS] };
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

  async update(id: string, changes: TokenChanges): Promise<TokenRecord | undefined> {
    const columns: Partial<TokenRow> = {};
    if (changes.disabled !== undefined) columns.disabled = changes.disabled;
    if (changes.name !== undefined) columns.name = changes.name;
    if (Object.keys(columns).length > 0) await this.db('tokens').where({ id }).update(columns);
    return this.findById(id);
  }

  async listByUser(userId: string): Promise<TokenRecord[]> {
    const rows = await this.db<TokenRow>('tokens').where({ user_id: userId }).orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
    return rows.map(toRecord);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db('tokens').where({ id }).delete()) > 0;
  }

  async recordUsage(usages: readonly TokenUsage[]): Promise<void> {
    if (usages.length === 0) return;
    await this.db.transaction(async (trx) => {
      for (const { tokenId, uses, lastUsedAt } of usages) {
        await trx('tokens')
          .where({ id: tokenId })
          .update({
            uses: trx.raw('uses + ?', [uses]),
            last_used_at: trx.raw('CASE WHEN last_used_at IS NULL OR last_used_at < ? THEN ? ELSE last_used_at END', [lastUsedAt, lastUsedAt]),
          });
      }
    });
  }
}
