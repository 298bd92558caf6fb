import * as t from 'io-ts';
import {
  asString,
  httpUrlOrOff,
  intInRange,
  type SettingsSection,
  upstreamCallSettings,
} from '../../platform/config/codecs.js';

export const WeatherSettingsCodec = t.type({
  ...upstreamCallSettings,
  /** Open-Meteo's forecast API, or `off`: the weather endpoints then answer 423. */
  openMeteoUrl: httpUrlOrOff,
  /** How long the conditions now, and a forecast, are kept per rounded point and options. */
  currentTtlMs: intInRange(0, 86_400_000),
  forecastTtlMs: intInRange(0, 86_400_000),
  /** How many answers are kept at most. */
  cacheEntries: intInRange(1, 1_000_000),
});
export type WeatherSettings = t.TypeOf<typeof WeatherSettingsCodec>;

/** The `weather` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const weatherSettings: SettingsSection<'weather', WeatherSettings> = {
  key: 'weather',
  codec: WeatherSettingsCodec,
  defaults: {
    openMeteoUrl: 'https://api.open-meteo.com/v1',
    timeoutMs: 5000,
    currentTtlMs: 600000,
    forecastTtlMs: 3600000,
    cacheEntries: 10000,
    backoffMs: 30000,
    failureTtlMs: 5000,
    hostTtlMs: 60000,
  },
  environment: [{ name: 'UTILITY_API_OPEN_METEO_URL', path: 'openMeteoUrl', parse: asString }],
};
