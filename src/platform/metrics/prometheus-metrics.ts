import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { UNMATCHED_OPERATION } from '../pipeline/metrics.js';
import type { MailOutboxDepth, Metrics } from '../pipeline/ports.js';

/** What the metrics read from elsewhere at each scrape. */
export interface MetricSources {
  /** The verified-token cache's lookups since the start. */
  readonly tokenCache: () => { readonly hits: number; readonly misses: number };
  /** Whoever keeps a mail outbox; none, no gauge. */
  readonly mailOutboxes: readonly MailOutboxDepth[];
}

/** Seconds: from a cached encryption (well under a millisecond) to an upstream's deadline. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | undefined;
/**
 * CPU, memory, event loop and GC belong to the process, and prom-client's collectors of them
 * (an event-loop monitor, a GC observer) cannot be stopped: they are started once per process,
 * however many applications it builds.
 */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** One series of the duration histogram: its labels as text, and its counts per bucket (not yet cumulative). */
interface DurationSeries {
  readonly labels: string;
  readonly perBucket: Float64Array;
  sum: number;
  count: number;
}

const labelValue = (value: string): string =>
  `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/**
 * `http_request_duration_seconds{method, route, status}`, kept by hand: prom-client's histogram
 * validates and hashes its labels at every observation, about a microsecond a request, where
 * here a series is found by the operation and status the pipeline passes, and becomes text only
 * when scraped (in the exposition format prom-client writes).
 */
class RequestDurations {
  private readonly byOperation = new Map<string, Map<number, DurationSeries>>();

  observe(operation: string, status: number, seconds: number): void {
    let byStatus = this.byOperation.get(operation);
    if (byStatus === undefined) {
      byStatus = new Map();
      this.byOperation.set(operation, byStatus);
    }
    let series = byStatus.get(status);
    if (series === undefined) {
      const { method, route } = labelsOf(operation);
      series = {
        labels: `method=${labelValue(method)},route=${labelValue(route)},status="${status}"`,
        perBucket: new Float64Array(DURATION_BUCKETS.length),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
    }
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket += 1;
    if (bucket < DURATION_BUCKETS.length) series.perBucket[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  exposition(): string {
    const name = 'http_request_duration_seconds';
    const lines = [
      `# HELP ${name} Time to answer a request, by method, route pattern and status`,
      `# TYPE ${name} histogram`,
    ];
    for (const byStatus of this.byOperation.values()) {
      for (const { labels, perBucket, sum, count } of byStatus.values()) {
        let cumulative = 0;
        DURATION_BUCKETS.forEach((bound, index) => {
          cumulative += perBucket[index]!;
          lines.push(`${name}_bucket{le="${bound}",${labels}} ${cumulative}`);
        });
        lines.push(
          `${name}_bucket{le="+Inf",${labels}} ${count}`,
          `${name}_sum{${labels}} ${sum}`,
          `${name}_count{${labels}} ${count}`,
        );
      }
    }
    return `${lines.join('\n')}\n\n`;
  }
}

/** `METHOD /path` as labels; whatever no route answers is `unmatched` in both. */
function labelsOf(operation: string): { readonly method: string; readonly route: string } {
  const space = operation.indexOf(' ');
  return operation === UNMATCHED_OPERATION || space < 0
    ? { method: UNMATCHED_OPERATION, route: UNMATCHED_OPERATION }
    : { method: operation.slice(0, space), route: operation.slice(space + 1) };
}

/**
 * The metrics port on prom-client, and the Prometheus text exposition `/metrics` answers:
 * - `http_request_duration_seconds{method, route, status}`: `route` is the route's pattern
 *   (`/api/game/network/maps/:map`), `unmatched` for whatever no route answers, so that no raw
 *   path can multiply the series;
 * - `rate_limit_rejections_total{route}`: requests answered 429, by a token's rate limit or the
 *   login throttle;
 * - `token_cache_lookups_total{result}`: `hit` or `miss` of the verified-token cache;
 * - `upstream_calls_total{upstream, outcome}`: calls made to outside services;
 * - `mail_outbox_messages{status}`: what an outbox holds, when one is kept;
 * - the process's own (`process_*`, `nodejs_*`).
 */
export class PrometheusMetrics implements Metrics {
  private readonly registry = new Registry();
  private readonly durations = new RequestDurations();
  private readonly rejections: Counter<'route'>;
  private readonly upstreamCalls: Counter<'upstream' | 'outcome'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.rejections = new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests answered 429 (rate limit or login throttle), by route pattern',
      labelNames: ['route'],
      registers,
    });
    this.upstreamCalls = new Counter({
      name: 'upstream_calls_total',
      help: 'Calls made to outside services, by upstream and outcome',
      labelNames: ['upstream', 'outcome'],
      registers,
    });
    new Counter({
      name: 'token_cache_lookups_total',
      help: 'Lookups of presented tokens in the verified-token cache, by result (hit, miss)',
      labelNames: ['result'],
      registers,
      collect() {
        const { hits, misses } = sources.tokenCache();
        this.reset();
        this.inc({ result: 'hit' }, hits);
        this.inc({ result: 'miss' }, misses);
      },
    });
    const outboxes = sources.mailOutboxes;
    if (outboxes.length > 0) {
      new Gauge({
        name: 'mail_outbox_messages',
        help: 'Messages in the mail outbox, by status',
        labelNames: ['status'],
        registers,
        async collect() {
          const depths = await Promise.all(outboxes.map((outbox) => outbox.byStatus()));
          this.reset();
          for (const depth of depths) for (const [status, count] of Object.entries(depth)) this.inc({ status }, count);
        },
      });
    }
    processMetrics();
  }

  observe(operation: string, status: number, milliseconds: number): void {
    this.durations.observe(operation, status, milliseconds / 1000);
    if (status === 429) this.rejections.inc({ route: labelsOf(operation).route });
  }

  /** Told of each call to an upstream (see the upstream client). */
  readonly countUpstreamCall = (upstream: string, outcome: string): void => {
    this.upstreamCalls.inc({ upstream, outcome });
  };

  /** The text a Prometheus server scrapes. */
  async exposition(): Promise<string> {
    const [ours, processWide] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return processWide + this.durations.exposition() + ours;
  }
}
