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
  /** Open-Meteo's forecast API, or `off`: every weather endpoint (the air's too) then answers 423. */
  openMeteoUrl: httpUrlOrOff,
  /** Open-Meteo's air-quality API, a host of its own, or `off`: the air alone then answers 423. */
  airQualityUrl: httpUrlOrOff,
  /** How long the conditions now, a forecast by day, one by hour and the air now are kept per rounded point and options. */
  currentTtlMs: intInRange(0, 86_400_000),
  forecastTtlMs: intInRange(0, 86_400_000),
  hourlyTtlMs: intInRange(0, 86_400_000),
  airTtlMs: intInRange(0, 86_400_000),
  /** How many answers are kept at most, by each API's client. */
  cacheEntries: intInRange(1, 1_000_000),
});
export type WeatherSettings = t.TypeOf<typeof WeatherSettingsCodec>;

/** The `weather` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const weatherSettings: SettingsSection<'weather', WeatherSettings> = {
  key: 'weather',
  codec: WeatherSettingsCodec,
  defaults: {
    openMeteoUrl: 'https://api.open-meteo.com/v1',
    airQualityUrl: 'https://air-quality-api.open-meteo.com/v1',
    timeoutMs: 5000,
    currentTtlMs: 600000,
    forecastTtlMs: 3600000,
    hourlyTtlMs: 900000,
    airTtlMs: 900000,
    cacheEntries: 10000,
    backoffMs: 30000,
    failureTtlMs: 5000,
    hostTtlMs: 60000,
  },
  environment: [
    { name: 'UTILITY_API_OPEN_METEO_URL', path: 'openMeteoUrl', parse: asString },
    { name: 'UTILITY_API_OPEN_METEO_AIR_QUALITY_URL', path: 'airQualityUrl', parse: asString },
  ],
};
