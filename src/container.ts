import { AuditTrail } from './domain/audit.js';
import { recordFeatureSwitches } from './platform/audit/feature-switches.js';
import 'reflect-metadata';
import { Container } from 'inversify';
import { join } from 'node:path';
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createLogger } from './platform/logging/logger.js';
import { migrateToLatest, openDatabase, type DatabaseSettings } from './platform/persistence/database.js';
import {
  chosenFamilies,
  familyModules,
  migrationsOf,
  permissionCatalogueOf,
  type FamilyName,
  type UseCasesOf,
} from './composition/families.js';
import type { AnyFamily } from './wiring/family.js';
import type { Health } from './platform/http/health.js';
import type { RouteTable } from './platform/http/route-table.js';
import { Mailer } from './families/mail/domain/ports.js';
import { HttpApp, httpModule } from './composition/http-module.js';
import { InstanceHealth, Log, Routes } from './wiring/identifiers.js';
import { Lifecycle, LifecycleComponent, type Closed } from './platform/lifecycle.js';
import { limitsModule } from './composition/limits-module.js';
import { accessChangeFeedModule } from './composition/access-change-feeds.js';
import { observabilityModule } from './composition/observability-module.js';
import { platformModule } from './composition/platform-module.js';
import { storageModule } from './composition/storage-module.js';
import { defaultRateLimitOf, type AppConfig } from './config/config.js';
import { Clock, type Randomness } from './domain/ports.js';
import { systemRandomness } from './platform/randomness/system-randomness.js';
import type { RouteSampleTable } from './platform/http/route-samples.js';
import { RECORDED_ANSWERS } from './composition/recorded-answers.js';

export type { Closed } from './platform/lifecycle.js';

/**
 * What the server, the CLI and the tests use of the built application, each piece typed: never the
 * container, which only the composition root looks things up in.
 */
export interface Application<Chosen extends FamilyName = FamilyName> {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The use cases of the families built, each under its family's name. */
  readonly useCases: UseCasesOf<Chosen>;
  /** The routes `httpApp()` serves, the system endpoints included: what its OpenAPI document is made from. */
  readonly routes: RouteTable;
  /** The Koa app serving the built families' routes; it needs the usersAndTokens family, which authenticates. */
  httpApp(): Koa;
  /** Writes buffered log lines now rather than at the next batch. */
  flushLogs(): void;
  /** A stop has begun: readiness fails from now on, and background work takes nothing new, before anything stops. */
  beginDrain(): void;
  /** Stops background work (writing token use counts), releases the database connection and writes out buffered logs. */
  close(): Promise<Closed>;
}

export interface BuildOptions<Chosen extends FamilyName = FamilyName> {
  /** The families to build, by name (default: all of them). */
  readonly families?: readonly Chosen[];
  /**
   * The list the families are chosen from (default: src/families/index.ts'), for a family defined
   * elsewhere, as a test defines one; its settings must have been loaded from the same list.
   */
  readonly familyList?: readonly AnyFamily[];
  /** Where logs go: stdout for the server, stderr for the CLI (whose stdout is its answer). */
  readonly logFd?: number;
  /** Apply pending migrations before returning (default true). */
  readonly migrate?: boolean;
  /** Where ids, secrets and nonces come from (default: the system's CSPRNG); a test may seed its own. */
  readonly randomness?: Randomness;
  /** What the use cases take the time from (default: the system's); a test may move its own (leases, back-off, expiry). */
  readonly clock?: Clock;
  /**
   * A seam for tests: an open connection to use instead of opening one from the config's database
   * settings, which must name the same database (`storage` sqlite or postgres). The caller owns it:
   * `close()` leaves it open. A test destroys it to see the service through a database outage.
   */
  readonly database?: Knex;
  /**
   * A seam for tests: where the mail family hands messages, instead of the mailer its settings
   * choose (an in-memory one, say, whose deliveries the test reads). The mail worker closes it when
   * it stops, as it would its own.
   */
  readonly mailer?: Mailer;
  /**
   * Whether this process writes a change of feature switches to the audit trail (default true):
   * a server does, when it starts with switches other than those last recorded; the CLI does not,
   * as the shell it runs in may not have the servers' configuration.
   */
  readonly recordsFeatureSwitches?: boolean;
}

export function databaseSettingsOf(config: AppConfig): DatabaseSettings | undefined {
  switch (config.storage) {
    case 'memory':
      return undefined;
    case 'sqlite':
      return {
        client: 'sqlite',
        filename: config.database.sqliteFile ?? join(config.dataDir, 'utility-api.sqlite'),
        timeoutMs: config.database.timeoutMs,
        synchronous: config.database.sqliteSynchronous,
      };
    case 'postgres':
      return { client: 'postgres', url: config.database.url!, timeoutMs: config.database.timeoutMs };
  }
}

/**
 * The composition root: config → database → family modules → transports, then background work.
 * Each family's bindings and routes live in its module (src/families/<family>/); this only orders them.
 */
export async function buildApplication<Chosen extends FamilyName = FamilyName>(
  config: AppConfig,
  options: BuildOptions<Chosen> = {},
): Promise<Application<Chosen>> {
  const families = chosenFamilies(options.families, options.familyList);
  const logging = createLogger(config.log.level, options.logFd);
  const logger = logging.logger;
  const container = new Container();
  container.bind(Log).toConstantValue(logger);

  const settings = databaseSettingsOf(config);
  if (options.database && !settings) {
    logging.close();
    throw new Error(`a database connection was given, but the storage setting is ${config.storage}`);
  }
  // While migrating at start, failing to reach the database is the start-up failure itself, which
  // the caller reports in one line; a warning of it before that line would say it twice.
  let migrating = true;
  const db =
    options.database ??
    (settings
      ? openDatabase(settings, (message) => {
          if (!migrating) logger.warn(message);
        })
      : undefined);
  /** Closes the connection this opened, never one the caller gave. */
  const closeDatabase = async (): Promise<void> => {
    if (db !== options.database) await db?.destroy();
  };
  let lifecycle: Lifecycle;
  let useCases: UseCasesOf<Chosen>;
  let routes: RouteTable;
  try {
    if (db && options.migrate !== false) {
      const applied = await migrateToLatest(db, migrationsOf(options.familyList));
      if (applied.length > 0) logger.info({ applied }, 'database migrated');
    }
    migrating = false;
    container.load(
      platformModule(
        options.randomness ?? systemRandomness,
        config.outbound,
        permissionCatalogueOf(options.familyList),
        options.clock,
      ),
      storageModule(db && settings ? { db, settings } : undefined),
      limitsModule({
        defaultRateLimit: defaultRateLimitOf(config),
        quotaCosts: config.quota.costs,
        redis: config.redis,
      }),
      accessChangeFeedModule(config.redis),
      ...familyModules(config, families),
      observabilityModule(),
      httpModule({
        maxBodyBytes: config.http.maxBodyBytes,
        accessLog: logging.accessLog,
        cors: config.cors,
        disabledFamilies: config.features.disabled,
        trustedProxies: config.http.trustedProxies,
        samples: Object.assign({}, ...families.map((family) => family.samples)) as RouteSampleTable,
        answers: RECORDED_ANSWERS,
      }),
    );
    if (options.mailer) container.rebind(Mailer).toConstantValue(options.mailer);
    // Resolved now, not at the first request, so that a family that cannot be built (an unreadable
    // key file, say) fails the start, for the server and the CLI alike.
    routes = container.get<RouteTable>(Routes);
    // Each family's use cases under its name: the one cast, from the identifier's type to the family's.
    useCases = Object.fromEntries(
      families.map((family) => [family.name, container.get(family.useCases)]),
    ) as UseCasesOf<Chosen>;
    lifecycle = new Lifecycle(container.getAll(LifecycleComponent), (component, error) => {
      // A component's error says what its failure lost; the cause is what went wrong.
      const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
      logger.error({ err: cause, component }, error instanceof Error ? error.message : `could not stop ${component}`);
    });
    if (options.recordsFeatureSwitches !== false)
      await recordFeatureSwitches(container.get(AuditTrail), config.features.disabled, container.get(Clock));
    await lifecycle.start();
  } catch (error) {
    await closeDatabase();
    logging.close();
    throw error;
  }

  const close = async (): Promise<Closed> => {
    const { failed } = await lifecycle.stop();
    await closeDatabase();
    logging.close();
    return { stopFailures: failed };
  };
  const beginDrain = (): void => {
    container.get<Health>(InstanceHealth).beginDrain();
    lifecycle.drain();
  };
  return {
    config,
    logger,
    useCases,
    routes,
    httpApp: () => container.get<Koa>(HttpApp),
    flushLogs: logging.flush,
    beginDrain,
    close,
  };
}
