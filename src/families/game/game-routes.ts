import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { GetMaps, GetPlayerStats } from './domain/game-queries.js';
import { GAME_ID, PLAYER_NAME } from './domain/game-queries.js';
import { missingInput, type DomainError } from '../../domain/errors.js';
import { PLAYER_GAMES, type MapEntry, type PlayerStats } from './domain/game.js';
import { GamePermission } from './domain/permissions.js';
import { matching } from '../../platform/http/codecs.js';
import { required } from '../../platform/http/fields.js';
import { fetchedJson, freshnessHeaders } from '../../platform/http/freshness.js';
import { defineRoute, type Route } from '../../platform/http/route-table.js';

export interface GameRouteDependencies {
  readonly getMaps: GetMaps;
  readonly getPlayerStats: GetPlayerStats;
}

const maps = t.readonlyArray(t.strict({ name: t.string, season: t.string, variant: t.string, image: t.string }));

/** Per game of ours: the network's statistics as it gives them, or null for a game never played. */
const playerStats = t.record(
  t.keyof(Object.fromEntries(PLAYER_GAMES.map((game) => [game, null]))),
  t.union([t.UnknownRecord, t.null]),
);

/** SPEC.md keeps the header codes 8 and 9 for the game: it was the `x-game` header before it moved into the path. */
const GAME_WAS_A_HEADER = { map: 'header' } as const;

/** Nothing known of that name, or the network not answering (in time) with nothing cached. */
const networkErrors = ['InformationNotFound', 'UpstreamUnavailable', 'UpstreamTimeout'] as const;

export function gameRoutes(deps: GameRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/game/network/maps/:map',
      permission: GamePermission.GameNetworkMap,
      summary: 'The maps of a game on The Hive',
      params: {
        map: required(
          matching(GAME_ID, 'a game id of 1 to 32 characters a-z, 0-9, _ or -'),
          'the game, e.g. hide, dr, wars',
        ),
      },
      fieldPlaces: GAME_WAS_A_HEADER,
      response: maps,
      responseHeaders: freshnessHeaders,
      errors: networkErrors,
      handle: async ({ params, requestId }) =>
        E.map(fetchedJson<readonly MapEntry[]>)(await deps.getMaps.execute(params.map, { requestId })),
    }),
    defineRoute({
      method: 'GET',
      path: '/game/network/maps',
      permission: GamePermission.GameNetworkMap,
      summary: 'Without a game: answers 400 code 8',
      // Never a success: this path only tells a caller that the game is missing.
      response: t.never,
      errors: ['MissingHeader'],
      fieldPlaces: GAME_WAS_A_HEADER,
      handle: (): E.Either<DomainError, never> => E.left(missingInput('map')),
    }),
    defineRoute({
      method: 'GET',
      path: '/game/network/player',
      permission: GamePermission.GameNetworkPlayer,
      summary: "A player's statistics per game on The Hive (null for a game never played)",
      query: {
        player: required(
          matching(PLAYER_NAME, 'a gamertag of 1 to 16 letters, digits, underscores or inner spaces'),
          'the gamertag',
        ),
      },
      response: playerStats,
      responseHeaders: freshnessHeaders,
      errors: networkErrors,
      handle: async ({ query, requestId }) =>
        E.map(fetchedJson<PlayerStats>)(await deps.getPlayerStats.execute(query.player, { requestId })),
    }),
  ];
}
