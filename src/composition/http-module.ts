import { ContainerModule } from 'inversify';
import { createApp } from '../platform/http/app.js';
import { trustProxies } from '../platform/http/client-address.js';
import type { CorsSettings } from '../platform/http/cors.js';
import type { Health } from '../platform/http/health.js';
import type { AnswerExampleTable, RouteSampleTable } from '../platform/http/route-samples.js';
import { CONSOLE_SWITCH } from '../platform/config/platform-settings.js';
import { PermissionCatalogue } from '../domain/permissions.js';
import { tableOfSections, withFamiliesDisabled, type RouteTable } from '../platform/http/route-table.js';
import { withOpenRoutes } from '../platform/http/system-routes.js';
import type { AccessLog } from '../platform/logging/logger.js';
import { UsersAndTokensUseCases } from '../families/users-and-tokens/users-and-tokens-module.js';
import { Metrics, RateLimiter, TokenRequestObserver } from '../platform/pipeline/ports.js';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { identifier } from '../domain/identifier.js';
import { InstanceHealth, Log, RouteContribution, Routes } from '../wiring/identifiers.js';

export interface HttpSettings {
  readonly maxBodyBytes: number;
  readonly accessLog: AccessLog;
  readonly cors: CorsSettings;
  /** Permission families turned off on this installation, and the console (`features.disabled`). */
  readonly disabledFamilies: readonly string[];
  /** The proxies whose X-Forwarded-For names the client (`http.trustedProxies`). */
  readonly trustedProxies: readonly string[];
  /** The families' samples, whose well-formed values are the reference's examples. */
  readonly samples?: RouteSampleTable;
  /** What each route answered its example request, for the reference (src/composition/recorded-answers.ts). */
  readonly answers?: AnswerExampleTable;
}

/**
 * The route table, made of what each module contributes and the endpoints asked without a token
 * (health from what the other modules bind, the OpenAPI document, the change log, the reference
 * page), and the Koa app that serves it with the rate limiter and the metrics the other modules bind.
 */
/**
 * The Koa app serving the route table. Named here rather than among the identifiers every family
 * reads, so that the package's declarations a family's types reach never need Koa's.
 */
export const HttpApp = identifier<Koa>('HttpApp');

export const httpModule = ({
  maxBodyBytes,
  accessLog,
  cors,
  disabledFamilies,
  trustedProxies,
  samples,
  answers,
}: HttpSettings): ContainerModule =>
  new ContainerModule((options) => {
    // The families' contributions, however many: a multiple injection, which the typed bindings do not take.
    options
      .bind(Routes)
      .toResolvedValue(
        (contributions: RouteContribution[], health: Health, catalogue: PermissionCatalogue): RouteTable =>
          withOpenRoutes(withFamiliesDisabled(tableOfSections(contributions), disabledFamilies), health, {
            samples,
            answers,
            permissions: catalogue.known,
            consoleOn: !disabledFamilies.includes(CONSOLE_SWITCH),
          }),
        [{ serviceIdentifier: RouteContribution, isMultiple: true }, InstanceHealth, PermissionCatalogue],
      )
      .inSingletonScope();
    // Any number of token request observers (usage history binds one): a multiple, optional injection.
    options
      .bind(HttpApp)
      .toResolvedValue(
        (
          table: RouteTable,
          users: UsersAndTokensUseCases,
          logger: Logger,
          rateLimiter: RateLimiter,
          metrics: Metrics,
          tokenRequests: TokenRequestObserver[] | undefined,
        ) => {
          const app = createApp({
            table,
            authenticate: users.authenticate,
            logIn: users.logInWithPassword,
            logger,
            accessLog,
            maxBodyBytes,
            rateLimiter,
            metrics,
            tokenRequests: tokenRequests ?? [],
            cors,
          });
          trustProxies(app, trustedProxies);
          return app;
        },
        [
          Routes,
          UsersAndTokensUseCases,
          Log,
          RateLimiter,
          Metrics,
          { serviceIdentifier: TokenRequestObserver, isMultiple: true, optional: true },
        ],
      )
      .inSingletonScope();
  });
