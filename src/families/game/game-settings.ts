import * as t from 'io-ts';
import {
  asString,
  httpUrl,
  intInRange,
  type SettingsSection,
  upstreamCallSettings,
} from '../../platform/config/codecs.js';

export const GameSettingsCodec = t.type({
  ...upstreamCallSettings,
  /** The Hive's public API. */
  baseUrl: httpUrl,
  mapsTtlMs: intInRange(0, 86_400_000),
  playerTtlMs: intInRange(0, 86_400_000),
  /** How many games and players are kept in cache at most. */
  cacheEntries: intInRange(1, 1_000_000),
});
export type GameSettings = t.TypeOf<typeof GameSettingsCodec>;

/** The `hive` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const gameSettings: SettingsSection<'hive', GameSettings> = {
  key: 'hive',
  codec: GameSettingsCodec,
  defaults: {
    baseUrl: 'https://api.playhive.com/v0',
    timeoutMs: 5000,
    mapsTtlMs: 600000,
    playerTtlMs: 60000,
    cacheEntries: 10000,
    backoffMs: 30000,
    failureTtlMs: 5000,
    hostTtlMs: 60000,
  },
  environment: [{ name: 'UTILITY_API_HIVE_URL', path: 'baseUrl', parse: asString }],
};
