import type { Knex } from 'knex';
import type { UsageHistory } from '../domain/ports.js';
import { DAY_MS, mergePoints, type UsageCount, type UsagePoint, type UsageQuery } from '../domain/usage.js';
import { USAGE_DAYS_TABLE, USAGE_HOURS_TABLE } from './migrations.js';

/** Rows per insert: seven values each, well under SQLite's limit of bound values per statement. */
const ROWS_PER_INSERT = 500;
/** The day an hour falls in, in SQL; a constant, so that the same text groups and selects. */
const DAY_OF_HOUR = `(hour - hour % ${DAY_MS})`;
const GROUP_COLUMN = { operation: 'operation', status: 'status_class' } as const;

interface HourRow {
  readonly token_id: string;
  readonly user_id: string;
  readonly operation: string;
  readonly status_class: string;
  readonly hour: string | number;
  count: string | number;
}

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

  /**
   * Deletes up to `limit` old hours, answering them, and adds their sums to the days, in one
   * transaction: an instance compacting at the same time waits for the rows deleted here and then
   * finds them gone (PostgreSQL), or waits for the file's one writer (SQLite).
   */
  async compact(before: number, limit: number): Promise<number> {
    const row = this.db.client.config.client === 'pg' ? 'ctid' : 'rowid';
    return this.db.transaction(async (trx) => {
      const deleted = await trx.raw(
        `delete from ?? where ${row} in (select ${row} from ?? where hour < ? limit ?)
         returning token_id, user_id, operation, status_class, hour, count`,
        [USAGE_HOURS_TABLE, USAGE_HOURS_TABLE, before, limit],
      );
      const hours = (Array.isArray(deleted) ? deleted : (deleted as { rows: unknown[] }).rows) as HourRow[];
      const days = new Map<string, HourRow & { day: number }>();
      for (const hour of hours) {
        const day = Number(hour.hour) - (Number(hour.hour) % DAY_MS);
        const key = `${hour.token_id}\u0000${hour.operation}\u0000${hour.status_class}\u0000${day}`;
        const earlier = days.get(key);
        if (earlier) earlier.count = Number(earlier.count) + Number(hour.count);
        else days.set(key, { ...hour, day, count: Number(hour.count) });
      }
      const rows = [...days.values()].map(({ hour: _hour, ...rest }) => rest);
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        await trx(USAGE_DAYS_TABLE)
          .insert(rows.slice(start, start + ROWS_PER_INSERT))
          .onConflict(['token_id', 'day', 'operation', 'status_class'])
          .merge({ count: trx.raw('?? + excluded.??', [`${USAGE_DAYS_TABLE}.count`, 'count']) });
      }
      return hours.length;
    });
  }
}
