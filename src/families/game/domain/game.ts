/** One map of a game on the network, as SPEC.md describes it: four strings, `image` an absolute URL. */
export interface MapEntry {
  readonly name: string;
  readonly season: string;
  readonly variant: string;
  readonly image: string;
}

/** The games a player's statistics are given for, under our names. */
export const PLAYER_GAMES = [
  'main',
  'hide',
  'deathrun',
  'war',
  'sg',
  'sky',
  'ctf',
  'drop',
  'ground',
  'build',
  'party',
  'bridge',
  'grav',
] as const;
export type PlayerGame = (typeof PLAYER_GAMES)[number];

/** Per game, the network's statistics object, or null for a game never played. */
export type PlayerStats = { readonly [G in PlayerGame]: Readonly<Record<string, unknown>> | null };
