import type { UsageHistory } from '../domain/ports.js';
import {
  bucketMsOf,
  bucketStart,
  DAY_MS,
  mergePoints,
  type UsageCount,
  type UsagePoint,
  type UsageQuery,
} from '../domain/usage.js';

interface Row {
  readonly tokenId: string;
  readonly userId: string;
  readonly operation: string;
  readonly status: string;
  /** An hour's start in the hours, a day's in the days. */
  readonly at: number;
  count: number;
}

const keyOf = (row: Omit<Row, 'count' | 'userId'>) =>
  `${row.at}\u0000${row.tokenId}\u0000${row.operation}\u0000${row.status}`;

/** Usage history in this process's memory: for tests and installations without a database. */
export class MemoryUsageHistory implements UsageHistory {
  private readonly hours = new Map<string, Row>();
  private readonly days = new Map<string, Row>();

  async record(counts: readonly UsageCount[]): Promise<void> {
    for (const { hour, count, ...rest } of counts) add(this.hours, { ...rest, at: hour, count });
  }

  async series({ scope, from, to, by, group }: UsageQuery): Promise<UsagePoint[]> {
    const bucketMs = bucketMsOf(by);
    const inScope = (row: Row) => ('tokenId' in scope ? row.tokenId === scope.tokenId : row.userId === scope.userId);
    const rows = [...this.hours.values(), ...(by === 'day' ? this.days.values() : [])];
    const points = rows
      .filter((row) => inScope(row) && row.at >= from && row.at < to)
      .map((row): UsagePoint => {
        const at = bucketStart(row.at, bucketMs);
        if (group === 'operation') return { at, operation: row.operation, count: row.count };
        if (group === 'status') return { at, status: row.status, count: row.count };
        return { at, count: row.count };
      });
    return mergePoints(points);
  }

  async compact(before: number, limit: number): Promise<number> {
    let removed = 0;
    for (const [key, row] of this.hours) {
      if (removed === limit) break;
      if (row.at >= before) continue;
      add(this.days, { ...row, at: bucketStart(row.at, DAY_MS) });
      this.hours.delete(key);
      removed += 1;
    }
    return removed;
  }
}

function add(rows: Map<string, Row>, row: Row): void {
  const key = keyOf(row);
  const stored = rows.get(key);
  if (stored) stored.count += row.count;
  else rows.set(key, { ...row });
}
