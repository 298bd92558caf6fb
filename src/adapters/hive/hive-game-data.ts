import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { Logger } from 'pino';
import type { GameData, GameDataResult, MapEntry, PlayerGame, PlayerStats } from '../../domain/game/game-data.js';
import { CachedUpstream, type UpstreamOptions } from './cached-upstream.js';

const absoluteUrl = new t.Type<string, string, unknown>(
  'an absolute http(s) URL',
  (u): u is string => typeof u === 'string' && URL.canParse(u) && /^https?:$/.test(new URL(u).protocol),
  (u, c) => (typeof u === 'string' && URL.canParse(u) && /^https?:$/.test(new URL(u).protocol) ? t.success(u) : t.failure(u, c)),
  t.identity,
);

/** The Hive's map entry, exactly the four fields SPEC.md lists; anything else about it is dropped. */
const HiveMapEntry = t.type({ name: t.string, season: t.string, variant: t.string, image: absoluteUrl });

/** Our name for each game → the key The Hive uses for it. */
const HIVE_KEY: { readonly [G in PlayerGame]: string } = {
  main: 'main',
  hide: 'hide',
  deathrun: 'dr',
  war: 'wars',
  sg: 'sg',
  sky: 'sky',
  ctf: 'ctf',
  drop: 'drop',
  ground: 'ground',
  build: 'build',
  party: 'party',
  bridge: 'bridge',
  grav: 'grav',
};

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

export interface HiveOptions extends Omit<UpstreamOptions, 'logger'> {
  readonly mapsTtlMs: number;
  readonly playerTtlMs: number;
}

/** The Hive's public API (`/game/map/{game}`, `/game/all/all/{player}`), cached and fault-tolerant. */
export class HiveGameData implements GameData {
  private readonly upstream: CachedUpstream;

  constructor(
    private readonly options: HiveOptions,
    private readonly logger: Logger,
  ) {
    this.upstream = new CachedUpstream({ ...options, logger });
  }

  maps(game: string): Promise<GameDataResult<readonly MapEntry[]>> {
    return this.upstream.get(`/game/map/${encodeURIComponent(game)}`, this.options.mapsTtlMs, (json) => {
      if (!Array.isArray(json)) throw new Error('maps: expected an array');
      const entries: MapEntry[] = [];
      json.forEach((candidate, index) => {
        const decoded = HiveMapEntry.decode(candidate);
        if (E.isRight(decoded)) entries.push({ name: decoded.right.name, season: decoded.right.season, variant: decoded.right.variant, image: decoded.right.image });
        else this.logger.warn({ game, index }, 'dropped a map entry the game network sent in the wrong shape');
      });
      return entries;
    });
  }

  playerStats(player: string): Promise<GameDataResult<PlayerStats>> {
    return this.upstream.get(`/game/all/all/${encodeURIComponent(player)}`, this.options.playerTtlMs, (json) => {
      if (!isObject(json)) throw new Error('player: expected an object');
      const stats = {} as Record<PlayerGame, Readonly<Record<string, unknown>> | null>;
      for (const [ours, theirs] of Object.entries(HIVE_KEY) as [PlayerGame, string][]) {
        const value = json[theirs];
        // The Hive answers [] for a game never played.
        stats[ours] = isObject(value) ? value : null;
      }
      return stats;
    });
  }
}
