import { EventLog } from '../domain/events.js';
import { announceQuotaThresholds } from '../platform/rate-limit/quota-thresholds.js';
import { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config.js';
import type { RateLimit } from '../domain/identity/rate-limit.js';
import { Clock } from '../domain/ports.js';
import { DependencyCheck } from '../platform/health/ports.js';
import { LifecycleComponent } from '../platform/lifecycle.js';
import { RateLimiter } from '../platform/pipeline/ports.js';
import { memoryCounters, redisCounters } from '../platform/rate-limit/counters.js';
import { TokenRateLimiter } from '../platform/rate-limit/token-rate-limiter.js';
import { Quotas } from '../platform/rate-limit/quotas.js';
import { servedPath, type Route } from '../platform/http/route-table.js';
import { RedisConnection } from '../platform/redis/redis-connection.js';
import { Log, Routes, SharedCounters } from '../wiring/identifiers.js';
import { typedBindings } from '../wiring/typed-binding.js';

export interface LimitsSettings {
  readonly defaultRateLimit: RateLimit | null;
  /** What an operation costs against a quota, by the permission it needs; 1 when not named. */
  readonly quotaCosts: Readonly<Record<string, number>>;
  readonly redis: AppConfig['redis'];
}

/** The operations (`METHOD /path`, as the pipeline names them) whose permission the operator priced. */
function costsByOperation(routes: readonly Route[], costs: Readonly<Record<string, number>>): Map<string, number> {
  const byOperation = new Map<string, number>();
  for (const route of routes) {
    const cost = route.permission === null ? undefined : costs[route.permission];
    if (cost !== undefined) byOperation.set(`${route.method} ${servedPath(route)}`, cost);
  }
  return byOperation;
}

/**
 * Request rate limits per token, counted (as the users family's login throttle is) in one place:
 * this process's memory, or Redis when `redis.url` is set, so that every instance counts against
 * one limit. The Redis connection starts before the families' background work and stops after
 * it, and readiness reports whether it answers. Quotas (per token and per user, by day or month)
 * are counted in the same place, after the rate limit, and announced beside it.
 */
export const limitsModule = ({ defaultRateLimit, quotaCosts, redis }: LimitsSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    if (redis.url === null) {
      constant(SharedCounters, memoryCounters);
    } else {
      const { url, commandTimeoutMs, keyPrefix } = redis;
      provide(
        RedisConnection,
        [Log],
        (logger) => new RedisConnection({ url, commandTimeoutMs }, logger),
      ).inSingletonScope();
      options.bind(LifecycleComponent).toService(RedisConnection);
      options.bind(DependencyCheck).toService(RedisConnection);
      provide(SharedCounters, [RedisConnection], (connection) =>
        redisCounters(connection.client, keyPrefix),
      ).inSingletonScope();
    }
    provide(
      RateLimiter,
      [SharedCounters, Log, Clock, Routes, EventLog],
      (counters, logger, clock, table, events) =>
        new TokenRateLimiter(
          counters,
          defaultRateLimit,
          logger,
          clock,
          new Quotas(clock, costsByOperation(table.routes, quotaCosts)),
          announceQuotaThresholds(events, clock, logger),
        ),
    ).inSingletonScope();
  });
