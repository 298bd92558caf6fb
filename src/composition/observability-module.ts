import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { Health, READINESS_DEADLINE_MS } from '../platform/http/health.js';
import { SYSTEM_SECTION, systemRoutes } from '../platform/http/system-routes.js';
import { PrometheusMetrics } from '../platform/metrics/prometheus-metrics.js';
import { VerifiedTokenCache } from '../families/users-and-tokens/domain/auth/verified-token-cache.js';
import { DependencyCheck } from '../platform/health/ports.js';
import { MailOutboxDepth, Metrics } from '../platform/pipeline/ports.js';
import { InstanceHealth, Log, RouteContribution, UpstreamCalls } from '../wiring/identifiers.js';

const NO_LOOKUPS = { hits: 0, misses: 0 };

/**
 * An outbox whose depth cannot be read (its database down) leaves the gauge without series for
 * that scrape rather than failing it: `/metrics` answers what the instance knows without it.
 */
const orNothingKnown = (outbox: MailOutboxDepth): MailOutboxDepth => ({
  byStatus: () => outbox.byStatus().catch(() => ({})),
});

/**
 * Prometheus metrics behind the pipeline's metrics port, fed by the token cache, every upstream
 * client and any mail outbox, and served at `/metrics`; the instance's health for `/livez` and
 * `/readyz`, from every dependency check the other modules bind.
 */
export const observabilityModule = (): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(PrometheusMetrics)
      .toResolvedValue(
        (cache: VerifiedTokenCache | undefined, mailOutboxes: MailOutboxDepth[] | undefined) =>
          new PrometheusMetrics({
            tokenCache: () => cache?.lookups() ?? NO_LOOKUPS,
            mailOutboxes: (mailOutboxes ?? []).map(orNothingKnown),
          }),
        [
          { serviceIdentifier: VerifiedTokenCache, optional: true },
          { serviceIdentifier: MailOutboxDepth, isMultiple: true, optional: true },
        ],
      )
      .inSingletonScope();
    bind(Metrics).toService(PrometheusMetrics);
    bind(UpstreamCalls).toResolvedValue(
      (metrics: PrometheusMetrics): UpstreamCalls => metrics.countUpstreamCall,
      [PrometheusMetrics],
    );
    bind(RouteContribution).toResolvedValue(
      (metrics: PrometheusMetrics): RouteContribution => ({
        section: SYSTEM_SECTION,
        routes: systemRoutes({ metricsText: () => metrics.exposition() }),
      }),
      [PrometheusMetrics],
    );
    bind(InstanceHealth)
      .toResolvedValue(
        (checks: DependencyCheck[] | undefined, logger: Logger) =>
          new Health(checks ?? [], READINESS_DEADLINE_MS, logger),
        [{ serviceIdentifier: DependencyCheck, isMultiple: true, optional: true }, Log],
      )
      .inSingletonScope();
  });
