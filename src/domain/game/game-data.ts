import type { CallContext } from '../call-context.js';

/** One map of a game on the network, as SPEC.md describes it: four strings, `image` an absolute URL. */
export interface MapEntry {
  readonly name: string;
  readonly season: string;
  readonly variant: string;
  readonly image: string;
}

/** The games a player's statistics are given for, under our names. */
export const PLAYER_GAMES = ['main', 'hide', 'deathrun', 'war', 'sg', 'sky', 'ctf', 'drop', 'ground', 'build', 'party', 'bridge', 'grav'] as const;
export type PlayerGame = (typeof PLAYER_GAMES)[number];

/** Per game, the network's statistics object, or null for a game never played. */
export type PlayerStats = { readonly [G in PlayerGame]: Readonly<Record<string, unknown>> | null };

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
export const GameData = Symbol.for('GameData');
