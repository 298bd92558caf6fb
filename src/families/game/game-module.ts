import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { HiveGameData } from './adapters/hive-game-data.js';
import { gameRoutes } from './game-routes.js';
import { GetMaps, GetPlayerStats } from './domain/game-queries.js';
import { GameData } from './domain/ports.js';
import { Clock } from '../../domain/ports.js';
import { Log, RouteContribution, UpstreamCalls, useCasesIdentifier } from '../../composition/identifiers.js';

import type { GameSettings } from './game-settings.js';
export type { GameSettings };

/** What the family offers a library user. */
export interface GameUseCases {
  readonly getMaps: GetMaps;
  readonly getPlayerStats: GetPlayerStats;
}
export const GameUseCases = useCasesIdentifier<GameUseCases>('GameUseCases');

/** Maps and player statistics of The Hive's games, from its public API. */
export const gameModule = ({
  baseUrl,
  timeoutMs,
  mapsTtlMs,
  playerTtlMs,
  cacheEntries,
  backoffMs,
  failureTtlMs,
  hostTtlMs,
}: GameSettings): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(GameData)
      .toResolvedValue(
        (logger: Logger, clock: Clock, countCall: UpstreamCalls) =>
          new HiveGameData(
            {
              baseUrl,
              deadlineMs: timeoutMs,
              mapsTtlMs,
              playerTtlMs,
              maxEntries: cacheEntries,
              defaultBackoffMs: backoffMs,
              failureTtlMs,
              hostTtlMs,
            },
            logger,
            { clock, countCall },
          ),
        [Log, Clock, UpstreamCalls],
      )
      .inSingletonScope();
    bind(GetMaps)
      .toResolvedValue((games: GameData) => new GetMaps(games), [GameData])
      .inSingletonScope();
    bind(GetPlayerStats)
      .toResolvedValue((games: GameData) => new GetPlayerStats(games), [GameData])
      .inSingletonScope();
    bind(GameUseCases).toResolvedValue(
      (getMaps: GetMaps, getPlayerStats: GetPlayerStats): GameUseCases => ({ getMaps, getPlayerStats }),
      [GetMaps, GetPlayerStats],
    );
    bind(RouteContribution).toResolvedValue(
      (getMaps: GetMaps, getPlayerStats: GetPlayerStats): RouteContribution => ({
        routes: gameRoutes({ getMaps, getPlayerStats }),
      }),
      [GetMaps, GetPlayerStats],
    );
  });
