import { expect } from 'chai';
import { MemoryGameData } from '../../src/families/game/adapters/memory-game-data.js';
import { GAME_ID, GetMaps, GetPlayerStats, PLAYER_NAME } from '../../src/families/game/domain/game-queries.js';
import type { GameData, GameDataResult } from '../../src/families/game/domain/ports.js';
import { expectLeftTag, expectRight } from '../support/either.js';

/** A game network that always answers the same way: for the outcomes no memory adapter has. */
const answering = (result: GameDataResult<never>): GameData => ({
  maps: async () => result,
  playerStats: async () => result,
});

describe('domain: game queries', () => {
  it('pass found answers through, saying whether they are stale', async () => {
    const maps = [{ name: 'Castle', season: 'NO_SEASON', variant: 'REGULAR', image: 'https://example.com/c.png' }];
    expect(expectRight(await new GetMaps(new MemoryGameData(new Map([['dr', maps]]))).execute('dr'))).to.deep.equal({
      value: maps,
      stale: false,
    });
  });

  it('turn the network’s outcomes into catalogue errors: 22, 29, 30', async () => {
    expectLeftTag(await new GetMaps(new MemoryGameData()).execute('nope'), 'InformationNotFound');
    expectLeftTag(
      await new GetPlayerStats(answering({ kind: 'unavailable', reason: 'failure' })).execute('x'),
      'UpstreamUnavailable',
    );
    expectLeftTag(
      await new GetPlayerStats(answering({ kind: 'unavailable', reason: 'timeout' })).execute('x'),
      'UpstreamTimeout',
    );
  });

  it('accept game ids and gamertags of the documented shapes only', () => {
    for (const ok of ['hide', 'dr', 'sky-kits', 'a_b', 'x'.repeat(32)]) expect(GAME_ID.test(ok), ok).to.equal(true);
    for (const bad of ['', 'Hide', 'a b', 'x'.repeat(33), '../etc']) expect(GAME_ID.test(bad), bad).to.equal(false);
    for (const ok of ['Steve123', 'A', 'Cool Gamer 42', 'x_'.repeat(8)])
      expect(PLAYER_NAME.test(ok), ok).to.equal(true);
    for (const bad of ['', ' lead', 'trail ', 'x'.repeat(17), 'a/b', 'semi;colon'])
      expect(PLAYER_NAME.test(bad), bad).to.equal(false);
  });
});
