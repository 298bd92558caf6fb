import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for The Hive's public API, answering from fixtures this project wrote in
 * the shapes The Hive documents: `/game/map/{game}` and `/game/all/all/{player}`, ETags and 304s,
 * 404 for what it does not know, and on demand 500s, malformed JSON, slow answers and 429s.
 */
export type HiveBehaviour = 'normal' | 'error' | 'garbage' | 'slow' | 'rate-limit';

const IMAGE = 'https://cdn.playhive.com/maps/';

export const HIVE_MAPS: Record<string, unknown[]> = {
  hide: [
    { name: 'Spooky Mansion', season: 'HALLOWEEN', variant: 'REGULAR', image: `${IMAGE}spooky.png` },
    { name: 'Frosty Village', season: 'WINTERFEST', variant: 'REGULAR', image: `${IMAGE}frosty.png`, extra: 'dropped quietly' },
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

export interface HiveFixture {
  readonly url: string;
  behaviour: HiveBehaviour;
  /** How long a `slow` answer takes. */
  slowMs: number;
  /** Seconds sent in Retry-After with a 429; none when undefined. */
  retryAfter: number | undefined;
  /** Every request that reached the fixture, by path. */
  readonly calls: string[];
  /** How many of them were answered 304. */
  notModified: number;
  close(): Promise<void>;
}

export async function startHiveFixture(): Promise<HiveFixture> {
  const sockets = new Set<import('node:net').Socket>();
  const fixture = { behaviour: 'normal', slowMs: 1_000, retryAfter: undefined, calls: [] as string[], notModified: 0 } as Omit<HiveFixture, 'url' | 'close'> & { url?: string };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    fixture.calls.push(path);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    switch (fixture.behaviour) {
      case 'error':
        return send(500, '{"message":"Internal Server Error"}');
      case 'garbage':
        return send(200, '{"this is": not json');
      case 'rate-limit':
        return send(429, '{"message":"Too Many Requests"}', fixture.retryAfter === undefined ? {} : { 'retry-after': String(fixture.retryAfter) });
      case 'slow':
        setTimeout(() => send(200, '[]'), fixture.slowMs).unref();
        return;
      case 'normal':
        break;
    }
    const map = /^\/game\/map\/([^/]+)$/.exec(path);
    const player = /^\/game\/all\/all\/([^/]+)$/.exec(path);
    const found = map ? HIVE_MAPS[decodeURIComponent(map[1]!)] : player ? HIVE_PLAYERS[decodeURIComponent(player[1]!).toLowerCase()] : undefined;
    if (found === undefined) return send(404, '{"message":"Not Found"}');
    const etag = `"${Buffer.from(path).toString('base64url')}"`;
    if (req.headers['if-none-match'] === etag) {
      fixture.notModified += 1;
      res.writeHead(304, { etag });
      return res.end();
    }
    send(200, JSON.stringify(found), { etag });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fixture, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  }) as HiveFixture;
}
