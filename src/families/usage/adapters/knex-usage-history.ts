import type { Knex } from 'knex';
import type { UsageHistory } from '../domain/ports.js';
import { DAY_MS, mergePoints, type UsageCount, type UsagePoint, type UsageQuery } from '../domain/usage.js';
import { USAGE_DAYS_TABLE, USAGE_HOURS_TABLE } from './migrations.js';

/** Rows per insert: seven values each, well under SQLite's limit of bound values per statement. */
const ROWS_PER_INSERT = 500;
/** The day an hour falls in, in SQL; a constant, so that the same text groups and selects. */
const DAY_OF_HOUR = `(hour - hour % ${DAY_MS})`;
const GROUP_COLUMN = { operation: 'operation', status: 'status_class' } as const;

interface SeriesRow {
  readonly at: string | number;
  readonly grouped?: string;
  readonly count: string | number;
}

/** Usage history in SQLite or PostgreSQL: hours in one table, compacted days in another. */
export class KnexUsageHistory implements UsageHistory {
  constructor(private readonly db: Knex) {}

  async record(counts: readonly UsageCount[]): Promise<void> {
    const rows = counts.map((count) => ({
      token_id: count.tokenId,
      user_id: count.userId,
      operation: count.operation,
      status_class: count.status,
      hour: count.hour,
      count: count.count,
    }));
    if (rows.length === 0) return;
    await this.db.transaction(async (trx) => {
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        await trx(USAGE_HOURS_TABLE)
          .insert(rows.slice(start, start + ROWS_PER_INSERT))
          .onConflict(['token_id', 'hour', 'operation', 'status_class'])
          // Added to, never overwritten: other instances write their own counts of the same hour.
          .merge({ count: trx.raw('?? + excluded.??', [`${USAGE_HOURS_TABLE}.count`, 'count']) });
      }
    });
  }

  async series({ scope, from, to, by, group }: UsageQuery): Promise<UsagePoint[]> {
    const column = group && GROUP_COLUMN[group];
    const read = (table: string, period: string, bucket: string) => {
      const query = this.db(table)
        .select(this.db.raw(`${bucket} as at`))
        .sum({ count: 'count' })
        .where('tokenId' in scope ? { token_id: scope.tokenId } : { user_id: scope.userId })
        .andWhere(period, '>=', from)
        .andWhere(period, '<', to)
        .groupByRaw(column ? `${bucket}, ${column}` : bucket);
      if (column) query.select({ grouped: column });
      return query as unknown as Promise<SeriesRow[]>;
    };
    const rows =
      by === 'hour'
        ? await read(USAGE_HOURS_TABLE, 'hour', 'hour')
        : [...(await read(USAGE_HOURS_TABLE, 'hour', DAY_OF_HOUR)), ...(await read(USAGE_DAYS_TABLE, 'day', 'day'))];
    return mergePoints(
      rows.map((row): UsagePoint => {
        const at = Number(row.at);
        const count = Number(row.count);
        if (group === 'operation') return { at, operation: row.grouped!, count };
        if (group === 'status') return { at, status: row.grouped!, count };
        return { at, count };
      }),
    );
  }

  async compact(before: number): Promise<number> {
    return this.db.client.config.client === 'pg'
      ? this.compactInOneStatement(before)
      : this.compactInTransaction(before);
  }

  /**
   * PostgreSQL: the hours are deleted and their sums added to the days by one statement, so that
   * an instance compacting at the same time waits for these rows and then finds them gone.
   */
  private async compactInOneStatement(before: number): Promise<number> {
    const result = await this.db.raw(
      `with moved as (
         delete from ?? where hour < ?
         returning token_id, user_id, operation, status_class, hour, count
       ), added as (
         insert into ?? (token_id, user_id, operation, status_class, day, count)
         select token_id, min(user_id), operation, status_class, ${DAY_OF_HOUR}, sum(count)
         from moved group by token_id, operation, status_class, ${DAY_OF_HOUR}
         on conflict (token_id, day, operation, status_class)
         do update set count = ??.count + excluded.count
         returning 1
       )
       select (select count(*) from moved) as removed, (select count(*) from added) as added`,
      [USAGE_HOURS_TABLE, before, USAGE_DAYS_TABLE, USAGE_DAYS_TABLE],
    );
    return Number((result as { rows: { removed: string }[] }).rows[0]!.removed);
  }

  /** SQLite: one writer at a time, so a transaction reads, adds and deletes as one step. */
  private async compactInTransaction(before: number): Promise<number> {
    return this.db.transaction(async (trx) => {
      const sums = (await trx(USAGE_HOURS_TABLE)
        .select('token_id', 'operation', 'status_class', trx.raw(`${DAY_OF_HOUR} as day`))
        .min({ user_id: 'user_id' })
        .sum({ count: 'count' })
        .where('hour', '<', before)
        .groupByRaw(`token_id, operation, status_class, ${DAY_OF_HOUR}`)) as Record<string, string | number>[];
      for (let start = 0; start < sums.length; start += ROWS_PER_INSERT) {
        await trx(USAGE_DAYS_TABLE)
          .insert(sums.slice(start, start + ROWS_PER_INSERT))
          .onConflict(['token_id', 'day', 'operation', 'status_class'])
          .merge({ count: trx.raw('?? + excluded.??', [`${USAGE_DAYS_TABLE}.count`, 'count']) });
      }
      return Number(await trx(USAGE_HOURS_TABLE).where('hour', '<', before).delete());
    });
  }
}
