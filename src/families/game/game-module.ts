import { ContainerModule } from 'inversify';
import { HiveGameData } from './adapters/hive-game-data.js';
import { gameRoutes } from './game-routes.js';
import { GetMaps, GetPlayerStats } from './domain/game-queries.js';
import { GameData } from './domain/ports.js';
import { Clock } from '../../domain/ports.js';
import { Log, RouteContribution, UpstreamCalls, useCasesIdentifier } from '../../wiring/identifiers.js';

import type { GameSettings } from './game-settings.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import { upstreamTimingOf } from '../../platform/upstream/upstream-call.js';
export type { GameSettings };

/** What the family offers a library user. */
export interface GameUseCases {
  readonly getMaps: GetMaps;
  readonly getPlayerStats: GetPlayerStats;
}
export const GameUseCases = useCasesIdentifier<GameUseCases>('GameUseCases');

/** Maps and player statistics of The Hive's games, from its public API. */
export const gameModule = (settings: GameSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide } = typedBindings(options);
    provide(
      GameData,
      [Log, Clock, UpstreamCalls],
      (logger, clock, countCall) =>
        new HiveGameData(
          {
            ...upstreamTimingOf(settings),
            baseUrl: settings.baseUrl,
            mapsTtlMs: settings.mapsTtlMs,
            playerTtlMs: settings.playerTtlMs,
            maxEntries: settings.cacheEntries,
          },
          logger,
          { clock, countCall },
        ),
    ).inSingletonScope();
    provide(GameUseCases, [GameData], (games) => ({
      getMaps: new GetMaps(games),
      getPlayerStats: new GetPlayerStats(games),
    })).inSingletonScope();
    provide(RouteContribution, [GameUseCases], (useCases) => ({
      section: { name: 'Game network (The Hive)', description: 'Maps and player statistics of The Hive, cached.' },
      routes: gameRoutes(useCases),
    }));
  });
