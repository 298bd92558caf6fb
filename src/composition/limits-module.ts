import { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config.js';
import type { RateLimit } from '../domain/identity/rate-limit.js';
import { Clock } from '../domain/ports.js';
import { DependencyCheck } from '../platform/health/ports.js';
import { LifecycleComponent } from '../platform/lifecycle.js';
import { RateLimiter } from '../platform/pipeline/ports.js';
import { memoryCounters, redisCounters } from '../platform/rate-limit/counters.js';
import { TokenRateLimiter } from '../platform/rate-limit/token-rate-limiter.js';
import { RedisConnection } from '../platform/redis/redis-connection.js';
import { Log, SharedCounters } from '../wiring/identifiers.js';
import { typedBindings } from '../wiring/typed-binding.js';

export interface LimitsSettings {
  readonly defaultRateLimit: RateLimit | null;
  readonly redis: AppConfig['redis'];
}

/**
 * Request rate limits per token, counted (as the users family's login throttle is) in one place:
 * this process's memory, or Redis when `redis.url` is set, so that every instance counts against
 * one limit. The Redis connection starts before the families' background work and stops after
 * it, and readiness reports whether it answers.
 */
export const limitsModule = ({ defaultRateLimit, redis }: LimitsSettings): ContainerModule =>
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
      [SharedCounters, Log, Clock],
      (counters, logger, clock) => new TokenRateLimiter(counters, defaultRateLimit, logger, clock),
    ).inSingletonScope();
  });
