import { ContainerModule } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { createApp } from '../adapters/http/app.js';
import type { RouteTable } from '../adapters/http/route-table.js';
import type { AccessLog } from '../adapters/logging/logger.js';
import { Authenticate } from '../domain/auth/authenticate.js';
import { LogInWithPassword } from '../domain/auth/log-in-with-password.js';
import { NO_METRICS } from '../domain/pipeline/metrics.js';
import { Metrics, RateLimiter } from '../domain/pipeline/ports.js';
import { ADMIT_EVERY_REQUEST } from '../domain/pipeline/rate-limiter.js';
import { HttpApp, Log, RouteContribution, Routes } from './identifiers.js';

export interface HttpSettings {
  readonly maxBodyBytes: number;
  readonly accessLog: AccessLog;
}

/**
 * The route table, made of what each family module contributes, and the Koa app that serves it.
 * Rate limiting and metrics do nothing here; a deployment rebinds the two ports to real adapters.
 */
export const httpModule = ({ maxBodyBytes, accessLog }: HttpSettings): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(RateLimiter).toConstantValue(ADMIT_EVERY_REQUEST);
    bind(Metrics).toConstantValue(NO_METRICS);
    bind(Routes).toResolvedValue(
      (contributions: RouteContribution[]): RouteTable => ({
        routes: contributions.flatMap((each) => each.routes),
        redirects: contributions.flatMap((each) => each.redirects ?? []),
      }),
      [{ serviceIdentifier: RouteContribution, isMultiple: true }],
    ).inSingletonScope();
    bind(HttpApp).toResolvedValue(
      (table: RouteTable, authenticate: Authenticate, logIn: LogInWithPassword, logger: Logger, rateLimiter: RateLimiter, metrics: Metrics): Koa =>
        createApp({ table, authenticate, logIn, logger, accessLog, maxBodyBytes, rateLimiter, metrics }),
      [Routes, Authenticate, LogInWithPassword, Log, RateLimiter, Metrics],
    ).inSingletonScope();
  });
