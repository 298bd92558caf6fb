import * as t from 'io-ts';
import type { Logger } from 'pino';
import type { CallContext } from '../../../domain/call-context.js';
import type { MapEntry, PlayerGame, PlayerStats } from '../domain/game.js';
import type { GameData, GameDataResult } from '../domain/ports.js';
import { AbsoluteHttpUrl, keepingValid } from '../../../platform/upstream/decoders.js';
import { UpstreamClient } from '../../../platform/upstream/upstream-client.js';
import type {
  UpstreamDependencies,
  UpstreamResult,
  UpstreamSettings,
} from '../../../platform/upstream/upstream-call.js';

/** The Hive's map entry, exactly the four fields SPEC.md lists; anything else about it is dropped. */
const HiveMapEntry: t.Decoder<unknown, MapEntry> = t.strict({
  name: t.string,
  season: t.string,
  variant: t.string,
  image: AbsoluteHttpUrl,
});

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

/** The Hive's statistics of one player, under our names; it answers [] for a game never played. */
const HivePlayer = new t.Type<PlayerStats, unknown, unknown>(
  'a Hive player',
  (u): u is PlayerStats => isObject(u),
  (u, context) => {
    if (!isObject(u)) return t.failure(u, context, 'expected an object');
    const stats = {} as Record<PlayerGame, Readonly<Record<string, unknown>> | null>;
    for (const [ours, theirs] of Object.entries(HIVE_KEY) as [PlayerGame, string][]) {
      const value = u[theirs];
      stats[ours] = isObject(value) ? value : null;
    }
    return t.success(stats);
  },
  t.identity,
);

/** How to reach The Hive (its upstream settings, named `hive` in logs) and how long its answers stay fresh. */
export type HiveOptions = Omit<UpstreamSettings, 'name'> & {
  readonly mapsTtlMs: number;
  readonly playerTtlMs: number;
};

/** The Hive's public API (`/game/map/{game}`, `/game/all/all/{player}`), cached and fault-tolerant. */
export class HiveGameData implements GameData {
  private readonly upstream: UpstreamClient;

  constructor(
    private readonly options: HiveOptions,
    private readonly logger: Logger,
    dependencies: Omit<UpstreamDependencies, 'logger'> = {},
  ) {
    this.upstream = new UpstreamClient({ name: 'hive', ...options }, { ...dependencies, logger });
  }

  async maps(game: string, context: CallContext = {}): Promise<GameDataResult<readonly MapEntry[]>> {
    const entries = keepingValid(HiveMapEntry, (index) =>
      this.logger.warn(
        { upstream: 'hive', game, index, requestId: context.requestId },
        'dropped a map entry of the wrong shape',
      ),
    );
    const result = await this.upstream.get(`/game/map/${encodeURIComponent(game)}`, {
      ttlMs: this.options.mapsTtlMs,
      decoder: entries,
      requestId: context.requestId,
    });
    return asGameData(result);
  }

  async playerStats(player: string, context: CallContext = {}): Promise<GameDataResult<PlayerStats>> {
    const result = await this.upstream.get(`/game/all/all/${encodeURIComponent(player)}`, {
      ttlMs: this.options.playerTtlMs,
      decoder: HivePlayer,
      requestId: context.requestId,
    });
    return asGameData(result);
  }
}

function asGameData<A>(result: UpstreamResult<A>): GameDataResult<A> {
  switch (result.kind) {
    case 'found':
      return { kind: 'found', value: result.value, stale: result.freshness === 'stale' };
    case 'not-found':
      return result;
    case 'timeout':
      return { kind: 'unavailable', reason: 'timeout' };
    case 'unavailable':
    case 'rejected':
      return { kind: 'unavailable', reason: 'failure' };
  }
}
