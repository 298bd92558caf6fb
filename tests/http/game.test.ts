import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHiveFixture, type HiveFixture } from '../support/hive-fixture.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

const PLAYER_KEYS = [
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
];

describe('http: game network (against a loopback Hive)', () => {
  let hive: HiveFixture;
  let server: TestServer;
  let token: string;

  /** A fresh server (and so a fresh cache) over the fixture, with these cache settings. */
  async function serve(hiveSettings: Record<string, number> = {}, logFd?: number): Promise<void> {
    await server?.close();
    const hiveOverrides = {
      baseUrl: hive.url,
      timeoutMs: 300,
      mapsTtlMs: 60_000,
      playerTtlMs: 60_000,
      backoffMs: 30_000,
      cacheEntries: 100,
      ...hiveSettings,
    };
    server = await startServer({
      logFd,
      overrides: { hive: hiveOverrides, ...(logFd !== undefined && { log: { level: 'info' } }) },
    });
    token = await server.tokenFor(['Game::*']);
    hive.resetCounts();
  }
  const get = (path: string) => server.get(path, { Authorization: `Bearer ${token}` });

  beforeEach(async () => {
    hive = await startHiveFixture();
    await serve();
  });
  afterEach(async () => {
    await server.close();
    await hive.close();
  });

  it('lists a game’s maps with exactly the four fields, dropping entries of the wrong shape', async () => {
    const response = await get('/api/game/network/maps/hide');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(response.headers.get('x-cache')).to.equal('fresh');
    expect(await response.json()).to.deep.equal([
      {
        name: 'Spooky Mansion',
        season: 'HALLOWEEN',
        variant: 'REGULAR',
        image: 'https://cdn.playhive.com/maps/spooky.png',
      },
      {
        name: 'Frosty Village',
        season: 'WINTERFEST',
        variant: 'REGULAR',
        image: 'https://cdn.playhive.com/maps/frosty.png',
      },
    ]);
  });

  it('answers 400/8 without a game, 400/9 for a malformed one, 404/22 for one the network does not know', async () => {
    await expectError(await get('/api/game/network/maps'), 400, 8);
    await expectError(await get('/api/game/network/maps/Not%20A%20Game!'), 400, 9);
    await expectError(await get(`/api/game/network/maps/${'x'.repeat(33)}`), 400, 9);
    await expectError(await get('/api/game/network/maps/nosuchgame'), 404, 22);
  });

  it('needs Game::Network.Map and Game::Network.Player', async () => {
    const mapsOnly = await server.tokenFor(['Game::Network.Map']);
    await expectError(
      await server.get('/api/game/network/player?player=Steve123', { Authorization: `Bearer ${mapsOnly}` }),
      403,
      1,
    );
    const playerOnly = await server.tokenFor(['Game::Network.Player']);
    await expectError(
      await server.get('/api/game/network/maps/hide', { Authorization: `Bearer ${playerOnly}` }),
      403,
      1,
    );
    await expectError(await server.get('/api/game/network/maps/hide'), 401, 3);
  });

  it('gives player statistics under our thirteen names, null for games never played', async () => {
    const response = await get('/api/game/network/player?player=Steve123');
    expect(response.status).to.equal(200);
    const stats = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(stats)).to.deep.equal(PLAYER_KEYS);
    expect(stats.deathrun).to.deep.equal({ xp: 800, played: 10, victories: 2 });
    expect(stats.war).to.equal(null);
    expect(stats.sg).to.equal(null);
    expect(stats.ctf).to.equal(null);
    expect(stats.main).to.deep.include({ username: 'Steve123' });
    expect(JSON.stringify(stats)).not.to.include('UUID').and.not.to.include('somethingNew');
  });

  it('answers 400/6 without a player, 400/7 for an impossible name, 404/22 for an unknown one', async () => {
    await expectError(await get('/api/game/network/player'), 400, 6);
    await expectError(await get('/api/game/network/player?player=%2F..%2Fadmin'), 400, 7);
    await expectError(await get(`/api/game/network/player?player=${'a'.repeat(17)}`), 400, 7);
    await expectError(await get('/api/game/network/player?player=Nobody'), 404, 22);
  });

  it('asks the network once for 1,000 requests for the same game', async () => {
    for (let batch = 0; batch < 20; batch++) {
      const responses = await Promise.all(Array.from({ length: 50 }, () => get('/api/game/network/maps/dr')));
      for (const response of responses) expect(response.status).to.equal(200);
      await Promise.all(responses.map((response) => response.arrayBuffer()));
    }
    expect(hive.calls).to.deep.equal(['/game/map/dr']);
  });

  it('shares one upstream call among concurrent identical requests while the cache is cold', async () => {
    hive.behaviour = 'slow';
    hive.slowMs = 150;
    await Promise.all(Array.from({ length: 30 }, () => get('/api/game/network/player?player=Steve123')));
    expect(hive.calls).to.have.length(1);
  });

  it('revalidates an expired answer with If-None-Match, and a 304 serves what it had', async () => {
    await serve({ mapsTtlMs: 0 });
    const first = await (await get('/api/game/network/maps/dr')).json();
    const second = await get('/api/game/network/maps/dr');
    expect(second.status).to.equal(200);
    expect(await second.json()).to.deep.equal(first);
    expect(hive.calls).to.have.length(2);
    expect(hive.notModified).to.equal(1);
  });

  it('serves an expired answer marked stale when the network fails, times out or rate-limits us', async () => {
    // No back-off after a failure, so that each behaviour is really met rather than skipped.
    await serve({ mapsTtlMs: 0, backoffMs: 0 });
    const original = await (await get('/api/game/network/maps/dr')).json();
    for (const behaviour of ['error', 'garbage', 'slow', 'slow-body', 'down', 'rate-limit'] as const) {
      hive.behaviour = behaviour;
      hive.slowMs = 2_000;
      const callsBefore = hive.calls.length;
      const response = await get('/api/game/network/maps/dr');
      expect(hive.calls, behaviour).to.have.length(callsBefore + 1);
      expect(response.status, behaviour).to.equal(200);
      expect(response.headers.get('x-cache'), behaviour).to.equal('stale');
      expect(response.headers.get('warning'), behaviour).to.equal('110 - "Response is Stale"');
      expect(await response.json()).to.deep.equal(original);
    }
  });

  it('after a failure, serves the stale answer at once instead of waiting on the network again', async () => {
    await serve({ mapsTtlMs: 0 });
    await (await get('/api/game/network/maps/dr')).arrayBuffer();
    hive.behaviour = 'slow';
    hive.slowMs = 2_000;
    expect((await get('/api/game/network/maps/dr')).headers.get('x-cache')).to.equal('stale');
    const callsAfterFailure = hive.calls.length;
    const again = await get('/api/game/network/maps/dr');
    expect(again.headers.get('x-cache')).to.equal('stale');
    // The timed-out call was abandoned, so waiting on the network would have taken a new call.
    expect(hive.calls).to.have.length(callsAfterFailure);
  });

  it('answers 502/29 or 504/30 when nothing is cached: never 500, never a hang', async () => {
    // A path each, since a failure with nothing cached is remembered for its path.
    hive.behaviour = 'error';
    await expectError(await get('/api/game/network/maps/hide'), 502, 29);
    hive.behaviour = 'garbage';
    await expectError(await get('/api/game/network/maps/dr'), 502, 29);
    hive.behaviour = 'slow';
    hive.slowMs = 2_000;
    // Only our own deadline (300 ms) answers 504: waiting for the fixture would have brought its late answer.
    await expectError(await get('/api/game/network/player?player=Steve123'), 504, 30);
    expect(hive.calls).to.deep.equal(['/game/map/hide', '/game/map/dr', '/game/all/all/Steve123']);
  });

  it('remembers a failure when nothing is cached: a dead network costs one deadline, not one per request', async () => {
    hive.behaviour = 'slow';
    hive.slowMs = 2_000;
    await expectError(await get('/api/game/network/player?player=Steve123'), 504, 30);
    await expectError(await get('/api/game/network/player?player=Steve123'), 504, 30);
    hive.behaviour = 'error';
    await expectError(await get('/api/game/network/maps/hide'), 502, 29);
    await expectError(await get('/api/game/network/maps/hide'), 502, 29);
    expect(hive.calls).to.deep.equal(['/game/all/all/Steve123', '/game/map/hide']);
  });

  it('backs off after the network’s 429 instead of passing it on', async () => {
    hive.behaviour = 'rate-limit';
    hive.retryAfter = 60;
    await expectError(await get('/api/game/network/maps/hide'), 502, 29);
    hive.behaviour = 'normal';
    // Still backing off: no call reaches the network, and our caller never sees a 429.
    await expectError(await get('/api/game/network/maps/dr'), 502, 29);
    expect(hive.calls).to.have.length(1);
  });

  it('logs a failure of the network as one line with the upstream, the reason and the request id, never a stack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'utility-api-log-'));
    const file = join(dir, 'server.log');
    const fd = openSync(file, 'w');
    let text: string;
    try {
      await serve({}, fd);
      hive.behaviour = 'error';
      await expectError(
        await server.get('/api/game/network/maps/hide', {
          Authorization: `Bearer ${token}`,
          'X-Request-Id': 'req-hive-down',
        }),
        502,
        29,
      );
    } finally {
      await server.close();
      closeSync(fd);
      text = readFileSync(file, 'utf8');
      rmSync(dir, { recursive: true, force: true });
    }
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const failures = lines.filter((line) => line.msg === 'upstream call failed');
    expect(failures).to.have.length(1);
    expect(failures[0]).to.include({ level: 40, upstream: 'hive', reason: 'answered 500', requestId: 'req-hive-down' });
    expect(text).not.to.include('stack').and.not.to.include('    at ');
    expect(lines.find((line) => line.msg === 'request')).to.include({ requestId: 'req-hive-down', status: 502 });
  });
});
