import { ContainerModule } from 'inversify';
import { Log, RouteContribution, SqlStorage, useCasesIdentifier } from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import { Clock } from '../../domain/ports.js';
import { LifecycleComponent } from '../../platform/lifecycle.js';
import { TokenRequestObserver } from '../../platform/pipeline/ports.js';
import { TokenStore, UserStore } from '../users-and-tokens/domain/index.js';
import { KnexUsageHistory } from './adapters/knex-usage-history.js';
import { MemoryUsageHistory } from './adapters/memory-usage-history.js';
import { UsageHistory } from './domain/ports.js';
import { ReadUsage } from './domain/read-usage.js';
import { UsageMeter } from './domain/usage-meter.js';
import { usageCompaction } from './usage-jobs.js';
import { PeriodicFlush } from '../../platform/periodic-flush.js';
import { usageRoutes } from './usage-routes.js';
import type { UsageSettings } from './usage-settings.js';

/** What the family offers a library user: reading a token's or a user's usage history. */
export interface UsageUseCases {
  readonly readUsage: ReadUsage;
  /** Counts a request made with a token, as the HTTP pipeline does for each; written with the next batch. */
  readonly meter: UsageMeter;
}
export const UsageUseCases = useCasesIdentifier<UsageUseCases>('UsageUseCases');

/**
 * Usage history: every request a token is let in on counted in memory (the pipeline tells the
 * meter), written in batches and at the stop, old hours summed into days, and the two routes.
 */
export const usageModule = (settings: UsageSettings): ContainerModule =>
  new ContainerModule((options) => {
    // Whose a token is comes from users and tokens, whose module the list of families loads first.
    if (!options.isBound(TokenStore) || !options.isBound(UserStore))
      throw new Error('usage history needs the usersAndTokens family, which knows whose each token is: build both');
    const { provide } = typedBindings(options);
    provide(UsageHistory, [SqlStorage], (sql) =>
      sql ? sql.inTime(new KnexUsageHistory(sql.db)) : new MemoryUsageHistory(),
    ).inSingletonScope();
    provide(UsageUseCases, [UsageHistory, TokenStore, UserStore, Clock], (history, tokens, users, clock) => ({
      readUsage: new ReadUsage(history, tokens, users, clock),
      meter: new UsageMeter(history, clock),
    })).inSingletonScope();
    provide(TokenRequestObserver, [UsageUseCases], ({ meter }) => ({
      observe: (principal, operation, status) =>
        meter.record(principal.token.id, principal.token.userId, operation, status),
    })).inSingletonScope();
    provide(
      LifecycleComponent,
      [UsageUseCases, Log],
      ({ meter }, logger) =>
        new PeriodicFlush('usage history flush', 'usage history counts', meter, settings.flushIntervalMs, logger),
    ).inSingletonScope();
    if (settings.compaction)
      provide(LifecycleComponent, [UsageHistory, Clock, Log], (history, clock, logger) =>
        usageCompaction(history, clock, settings.retentionDays, logger),
      ).inSingletonScope();
    provide(RouteContribution, [UsageUseCases], ({ readUsage }) => ({
      section: {
        name: 'Usage history',
        description: 'How many requests each token made, by operation, status class and hour or day.',
      },
      routes: usageRoutes(readUsage),
    }));
  });
