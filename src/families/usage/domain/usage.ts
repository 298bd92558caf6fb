/** What usage history counts and answers: counts by token, operation, status class and hour. */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A status code's class as counted: `2xx`, `4xx`, `5xx`… (a 499, a client gone, counts as `4xx`). */
export type StatusClass = `${1 | 2 | 3 | 4 | 5}xx`;
export const STATUS_CLASSES: readonly StatusClass[] = ['1xx', '2xx', '3xx', '4xx', '5xx'];

export const statusClassOf = (status: number): StatusClass =>
  STATUS_CLASSES[Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1]!;

/** The start of the bucket (hour or day, in UTC) that `at` falls in. */
export const bucketStart = (at: number, bucketMs: number): number => at - (((at % bucketMs) + bucketMs) % bucketMs);

/** Requests of one token for one operation and status class within one hour. */
export interface UsageCount {
  readonly tokenId: string;
  /** The token's owner, so that a user's usage still counts the tokens since deleted. */
  readonly userId: string;
  /** The route as the metrics name it: `GET /crypto/enc`. */
  readonly operation: string;
  readonly status: StatusClass;
  /** The start of the hour, in milliseconds since the epoch. */
  readonly hour: number;
  readonly count: number;
}

export type Granularity = 'hour' | 'day';
export const GRANULARITIES: readonly Granularity[] = ['hour', 'day'];
export type Grouping = 'operation' | 'status';
export const GROUPINGS: readonly Grouping[] = ['operation', 'status'];

export const bucketMsOf = (by: Granularity): number => (by === 'hour' ? HOUR_MS : DAY_MS);

/** Whose requests a question sums: one token's, or every token of one user's, those deleted included. */
export type UsageScope = { readonly tokenId: string } | { readonly userId: string };

export interface UsageQuery {
  readonly scope: UsageScope;
  /** The first bucket's start, on a bucket boundary. */
  readonly from: number;
  /** The end of the last bucket (exclusive), on a bucket boundary. */
  readonly to: number;
  readonly by: Granularity;
  readonly group?: Grouping;
}

/** One bucket of a series: its start, the group it counts if the question grouped, and the count. */
export interface UsagePoint {
  readonly at: number;
  readonly operation?: string;
  readonly status?: string;
  readonly count: number;
}

/** Buckets by their start, then by the group's value, as every adapter answers them. */
export const byBucketThenGroup = (a: UsagePoint, b: UsagePoint): number => {
  if (a.at !== b.at) return a.at - b.at;
  const ka = a.operation ?? a.status ?? '';
  const kb = b.operation ?? b.status ?? '';
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** Adds up points of the same bucket and group (hours and compacted days of one day, or several instances' rows). */
export function mergePoints(points: readonly UsagePoint[]): UsagePoint[] {
  const merged = new Map<string, UsagePoint>();
  for (const point of points) {
    const key = `${point.at}\u0000${point.operation ?? ''}\u0000${point.status ?? ''}`;
    const earlier = merged.get(key);
    merged.set(key, earlier ? { ...earlier, count: earlier.count + point.count } : point);
  }
  return [...merged.values()].sort(byBucketThenGroup);
}
