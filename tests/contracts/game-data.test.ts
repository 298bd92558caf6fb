import { expect } from 'chai';
import pino from 'pino';
import { HiveGameData } from '../../src/families/game/adapters/hive-game-data.js';
import { MemoryGameData } from '../../src/families/game/adapters/memory-game-data.js';
import type { PlayerStats } from '../../src/families/game/domain/game.js';
import type { GameData } from '../../src/families/game/domain/ports.js';
import { startHiveFixture, type HiveFixture } from '../support/hive-fixture.js';

const CASTLE = {
  name: 'Castle',
  season: 'NO_SEASON',
  variant: 'REGULAR',
  image: 'https://cdn.playhive.com/maps/castle.png',
};
const STEVE: PlayerStats = {
  main: { username: 'Steve123', xp: 123456, first_played: 1600000000 },
  hide: { xp: 5000, played: 40, victories: 12 },
  deathrun: { xp: 800, played: 10, victories: 2 },
  war: null,
  sg: null,
  sky: { xp: 10, played: 1 },
  ctf: null,
  drop: null,
  ground: null,
  build: null,
  party: null,
  bridge: null,
  grav: null,
};

/** Both adapters hold the same world: the game `dr` with one map, and the player Steve123. */
const adapters: { name: string; open: () => Promise<{ games: GameData; close(): Promise<void> }> }[] = [
  {
    name: 'memory',
    open: async () => ({
      games: new MemoryGameData(new Map([['dr', [CASTLE]]]), new Map([['steve123', STEVE]])),
      close: async () => {},
    }),
  },
  {
    name: 'The Hive over HTTP',
    open: async () => {
      const hive: HiveFixture = await startHiveFixture();
      const games = new HiveGameData(
        {
          baseUrl: hive.url,
          deadlineMs: 1_000,
          mapsTtlMs: 60_000,
          playerTtlMs: 60_000,
          maxEntries: 10,
          defaultBackoffMs: 1_000,
          failureTtlMs: 5_000,
          hostTtlMs: 60_000,
        },
        pino({ level: 'silent' }),
      );
      return { games, close: () => hive.close() };
    },
  },
];

for (const adapter of adapters) {
  describe(`contract: GameData (${adapter.name})`, () => {
    let games: GameData;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ games, close } = await adapter.open());
    });
    afterEach(async () => close());

    it("finds a game's maps and says so when a game is unknown", async () => {
      expect(await games.maps('dr')).to.deep.equal({ kind: 'found', value: [CASTLE], stale: false });
      expect(await games.maps('nosuchgame')).to.deep.equal({ kind: 'not-found' });
    });

    it("finds a player's statistics whatever the case of the name, and says so when unknown", async () => {
      expect(await games.playerStats('Steve123')).to.deep.equal({ kind: 'found', value: STEVE, stale: false });
      expect(await games.playerStats('Nobody')).to.deep.equal({ kind: 'not-found' });
    });
  });
}
