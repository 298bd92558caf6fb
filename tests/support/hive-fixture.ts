import { startFixtureServer, type FixtureServer, type Recorded } from './fixture-server.js';

/**
 * The Hive's public API on loopback, answering from recordings this project wrote in the shapes
 * The Hive documents: `/game/map/{game}` and `/game/all/all/{player}` (any letter case).
 */
const IMAGE = 'https://cdn.playhive.com/maps/';

export const HIVE_MAPS: Record<string, unknown[]> = {
  hide: [
    { name: 'Spooky Mansion', season: 'HALLOWEEN', variant: 'REGULAR', image: `${IMAGE}spooky.png` },
    {
      name: 'Frosty Village',
      season: 'WINTERFEST',
      variant: 'REGULAR',
      image: `${IMAGE}frosty.png`,
      extra: 'dropped quietly',
    },
    { name: 'Relative Image', season: 'NO_SEASON', variant: 'REGULAR', image: '/maps/relative.png' },
    { name: 'No Variant', season: 'NO_SEASON', image: `${IMAGE}novariant.png` },
    { name: 42, season: 'NO_SEASON', variant: 'REGULAR', image: `${IMAGE}number.png` },
  ],
  dr: [{ name: 'Castle', season: 'NO_SEASON', variant: 'REGULAR', image: `${IMAGE}castle.png` }],
};

export const HIVE_PLAYERS: Record<string, unknown> = {
  steve123: {
    main: { username: 'Steve123', xp: 123456, first_played: 1600000000 },
    hide: { xp: 5000, played: 40, victories: 12 },
    dr: { xp: 800, played: 10, victories: 2 },
    wars: [],
    murder: { xp: 1, played: 1 },
    sg: [],
    sky: { xp: 10, played: 1 },
    UUID: '00000000-0000-4000-8000-000000000000',
    somethingNew: { xp: 9 },
  },
};

export type HiveFixture = FixtureServer;

const PLAYER_PATH = /^\/game\/all\/all\/([^/]+)$/;

export function startHiveFixture(): Promise<HiveFixture> {
  const recordings: Record<string, Recorded> = {};
  for (const [game, maps] of Object.entries(HIVE_MAPS)) recordings[`/game/map/${game}`] = { body: maps };
  for (const [player, stats] of Object.entries(HIVE_PLAYERS)) recordings[`/game/all/all/${player}`] = { body: stats };
  return startFixtureServer({
    recordings,
    // The Hive finds a player whatever the letter case of the name.
    recordingKey: (path) =>
      path.replace(PLAYER_PATH, (_, player: string) => `/game/all/all/${decodeURIComponent(player).toLowerCase()}`),
  });
}
