import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../../../domain/errors.js';
import type { CallContext } from '../../../domain/call-context.js';
import type { Fetched } from '../../../domain/fetched.js';
import type { MapEntry, PlayerStats } from './game.js';
import type { GameData, GameDataResult } from './ports.js';

function fromResult<A>(result: GameDataResult<A>, what: string): E.Either<DomainError, Fetched<A>> {
  switch (result.kind) {
    case 'found':
      return E.right({ value: result.value, stale: result.stale });
    case 'not-found':
      return E.left({ _tag: 'InformationNotFound', details: `The game network does not know ${what}` });
    case 'unavailable':
      return E.left(
        result.reason === 'timeout'
          ? { _tag: 'UpstreamTimeout', details: 'The game network did not answer in time' }
          : { _tag: 'UpstreamUnavailable', details: 'The game network could not be reached' },
      );
  }
}

export class GetMaps {
  constructor(private readonly games: GameData) {}

  async execute(game: string, context: CallContext = {}): Promise<E.Either<DomainError, Fetched<readonly MapEntry[]>>> {
    return fromResult(await this.games.maps(game, context), `the game ${game}`);
  }
}

export class GetPlayerStats {
  constructor(private readonly games: GameData) {}

  async execute(player: string, context: CallContext = {}): Promise<E.Either<DomainError, Fetched<PlayerStats>>> {
    return fromResult(await this.games.playerStats(player, context), `the player ${player}`);
  }
}

/** Game ids as the network names them: `hide`, `dr`, `wars`, ... */
export const GAME_ID = /^[a-z0-9_-]{1,32}$/;
/** Bedrock gamertags: letters, digits, underscores and inner spaces, at most 16 characters. */
export const PLAYER_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_ ]{0,14}[A-Za-z0-9_])?$/;
