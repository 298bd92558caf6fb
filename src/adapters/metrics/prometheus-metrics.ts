import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { UNMATCHED_OPERATION } from '../../domain/pipeline/metrics.js';
import type { MailOutboxDepth, Metrics } from '../../domain/pipeline/ports.js';

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

interface Labels {
  readonly method: string;
  readonly route: string;
}
type DurationLabels = Labels & { readonly status: string };

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
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private readonly rejections: Counter<'route'>;
  private readonly upstreamCalls: Counter<'upstream' | 'outcome'>;
  /** `METHOD /path` split once per operation, its labels made once per status: observing costs no parsing and no new object. */
  private readonly labelsOf = new Map<string, { readonly labels: Labels; readonly byStatus: Map<number, DurationLabels> }>();

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.rejections = new Counter({ name: 'rate_limit_rejections_total', help: 'Requests answered 429 (rate limit or login throttle), by route pattern', labelNames: ['route'], registers });
    this.upstreamCalls = new Counter({ name: 'upstream_calls_total', help: 'Calls made to outside services, by upstream and outcome', labelNames: ['upstream', 'outcome'], registers });
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
    const { labels, byStatus } = this.labels(operation);
    let durationLabels = byStatus.get(status);
    if (durationLabels === undefined) {
      durationLabels = { ...labels, status: String(status) };
      byStatus.set(status, durationLabels);
    }
    this.durations.observe(durationLabels, milliseconds / 1000);
    if (status === 429) this.rejections.inc({ route: labels.route });
  }

  /** Told of each call to an upstream (see the upstream client). */
  readonly countUpstreamCall = (upstream: string, outcome: string): void => {
    this.upstreamCalls.inc({ upstream, outcome });
  };

  /** The text a Prometheus server scrapes. */
  async exposition(): Promise<string> {
    const [ours, processWide] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return processWide + ours;
  }

  private labels(operation: string): { readonly labels: Labels; readonly byStatus: Map<number, DurationLabels> } {
    let known = this.labelsOf.get(operation);
    if (known === undefined) {
      const space = operation.indexOf(' ');
      const labels = operation === UNMATCHED_OPERATION || space < 0 ? { method: UNMATCHED_OPERATION, route: UNMATCHED_OPERATION } : { method: operation.slice(0, space), route: operation.slice(space + 1) };
      known = { labels, byStatus: new Map() };
      this.labelsOf.set(operation, known);
    }
    return known;
  }
}
