import { ContainerModule } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { createApp } from '../platform/http/app.js';
import { trustProxies } from '../platform/http/client-address.js';
import type { CorsSettings } from '../platform/http/cors.js';
import type { Health } from '../platform/http/health.js';
import { withFamiliesDisabled, type RouteTable } from '../platform/http/route-table.js';
import type { AccessLog } from '../platform/logging/logger.js';
import { UsersAndTokensUseCases } from '../families/users-and-tokens/users-and-tokens-module.js';
import { Metrics, RateLimiter } from '../platform/pipeline/ports.js';
import { HttpApp, InstanceHealth, Log, RouteContribution, Routes } from './identifiers.js';

export interface HttpSettings {
  readonly maxBodyBytes: number;
  readonly accessLog: AccessLog;
  readonly cors: CorsSettings;
  /** Permission families turned off on this installation (`features.disabled`). */
  readonly disabledFamilies: readonly string[];
  /** The proxies whose X-Forwarded-For names the client (`http.trustedProxies`). */
  readonly trustedProxies: readonly string[];
}

/**
 * The route table, made of what each module contributes, and the Koa app that serves it with
 * the rate limiter, the metrics and the health the other modules bind.
 */
export const httpModule = ({
  maxBodyBytes,
  accessLog,
  cors,
  disabledFamilies,
  trustedProxies,
}: HttpSettings): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(Routes)
      .toResolvedValue(
        (contributions: RouteContribution[]): RouteTable =>
          withFamiliesDisabled(
            {
              routes: contributions.flatMap((each) => each.routes),
              redirects: contributions.flatMap((each) => each.redirects ?? []),
            },
            disabledFamilies,
          ),
        [{ serviceIdentifier: RouteContribution, isMultiple: true }],
      )
      .inSingletonScope();
    bind(HttpApp)
      .toResolvedValue(
        (
          table: RouteTable,
          { authenticate, logInWithPassword: logIn }: UsersAndTokensUseCases,
          logger: Logger,
          rateLimiter: RateLimiter,
          metrics: Metrics,
          health: Health,
        ): Koa => {
          const app = createApp({
            table,
            authenticate,
            logIn,
            logger,
            accessLog,
            maxBodyBytes,
            rateLimiter,
            metrics,
            cors,
            health,
          });
          trustProxies(app, trustedProxies);
          return app;
        },
        [Routes, UsersAndTokensUseCases, Log, RateLimiter, Metrics, InstanceHealth],
      )
      .inSingletonScope();
  });
