import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { CountedLoginThrottle } from '../families/users-and-tokens/adapters/counted-login-throttle.js';
import { memoryCounters, redisCounters, type Counters } from '../platform/rate-limit/counters.js';
import { TokenRateLimiter } from '../platform/rate-limit/token-rate-limiter.js';
import { RedisConnection } from '../platform/redis/redis-connection.js';
import type { AppConfig } from '../config/config.js';
import { loginThrottlePolicies, policyOfKey } from '../families/users-and-tokens/domain/auth/login-throttle.js';
import { LoginThrottle } from '../families/users-and-tokens/domain/auth/ports.js';
import { DependencyCheck } from '../platform/health/ports.js';
import { RateLimiter } from '../platform/pipeline/ports.js';
import type { RateLimit } from '../domain/identity/rate-limit.js';
import { Log } from './identifiers.js';
import { LifecycleComponent } from '../platform/lifecycle.js';

export interface LimitsSettings {
  readonly defaultRateLimit: RateLimit | null;
  readonly redis: AppConfig['redis'];
  /** Failed logins one client address may make over all accounts before it waits (`auth.loginThrottle.perAddress`). */
  readonly loginFailuresPerAddress: number;
}

const SharedCounters = Symbol.for('Counters');

/**
 * Request rate limits per token and the login throttle, counted in one place: this process's
 * memory, or Redis when `redis.url` is set, so that every instance counts against one limit. The
 * Redis connection starts before the families' background work and stops after it, and readiness
 * reports whether it answers.
 */
export const limitsModule = ({ defaultRateLimit, redis, loginFailuresPerAddress }: LimitsSettings): ContainerModule =>
  new ContainerModule(({ bind }) => {
    if (redis.url === null) {
      bind(SharedCounters).toConstantValue(memoryCounters);
    } else {
      const { url, commandTimeoutMs, keyPrefix } = redis;
      bind(RedisConnection)
        .toResolvedValue((logger: Logger) => new RedisConnection({ url, commandTimeoutMs }, logger), [Log])
        .inSingletonScope();
      bind(LifecycleComponent).toService(RedisConnection);
      bind(DependencyCheck).toService(RedisConnection);
      bind(SharedCounters)
        .toResolvedValue(
          (connection: RedisConnection) => redisCounters(connection.client, keyPrefix),
          [RedisConnection],
        )
        .inSingletonScope();
    }
    bind(RateLimiter)
      .toResolvedValue(
        (counters: Counters, logger: Logger) => new TokenRateLimiter(counters, defaultRateLimit, logger),
        [SharedCounters, Log],
      )
      .inSingletonScope();
    bind(LoginThrottle)
      .toResolvedValue(
        (counters: Counters) =>
          new CountedLoginThrottle(counters, policyOfKey(loginThrottlePolicies(loginFailuresPerAddress))),
        [SharedCounters],
      )
      .inSingletonScope();
  });
