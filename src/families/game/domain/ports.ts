import { identifier } from '../../../domain/identifier.js';
import type { CallContext } from '../../../domain/call-context.js';
import type { MapEntry, PlayerStats } from './game.js';

/**
 * What asking the network gives: the answer (possibly an older cached one when the network
 * could not be reached), "no such game or player", or nothing usable in time.
 */
export type GameDataResult<A> =
  | { readonly kind: 'found'; readonly value: A; readonly stale: boolean }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'unavailable'; readonly reason: 'timeout' | 'failure' };

/** The game network (The Hive) as the domain needs it. */
export interface GameData {
  maps(game: string, context?: CallContext): Promise<GameDataResult<readonly MapEntry[]>>;
  playerStats(player: string, context?: CallContext): Promise<GameDataResult<PlayerStats>>;
}
export const GameData = identifier<GameData>('GameData');
