import type { MapEntry, PlayerStats } from '../domain/game.js';
import type { GameData, GameDataResult } from '../domain/ports.js';

/** Game data held in memory: for tests of the domain and for running without the network. */
export class MemoryGameData implements GameData {
  constructor(
    private readonly mapsByGame: ReadonlyMap<string, readonly MapEntry[]> = new Map(),
    private readonly statsByPlayer: ReadonlyMap<string, PlayerStats> = new Map(),
  ) {}

  async maps(game: string): Promise<GameDataResult<readonly MapEntry[]>> {
    const maps = this.mapsByGame.get(game);
    return maps ? { kind: 'found', value: maps, stale: false } : { kind: 'not-found' };
  }

  async playerStats(player: string): Promise<GameDataResult<PlayerStats>> {
    const stats = this.statsByPlayer.get(player.toLowerCase());
    return stats ? { kind: 'found', value: stats, stale: false } : { kind: 'not-found' };
  }
}
