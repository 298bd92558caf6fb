/**
 * The package's `utility-api/http` entry: the HTTP app over what `buildUseCases` built, with the
 * server's routes, errors and OpenAPI document for the families built; and, as types, the ports
 * of its pipeline (rate limiting, metrics) and of readiness, which are the platform's, not the domain's.
 */
export { createHttpApp, type HttpApp } from './library.js';
export type {
  MailOutboxDepth,
  Metrics,
  RateLimiter,
  RateLimitPolicy,
  RateLimitStanding,
  TokenRequestObserver,
} from './platform/pipeline/ports.js';
export type { DependencyCheck } from './platform/health/ports.js';
