import * as E from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import type { CallContext } from '../../../domain/call-context.js';
import type { WeatherResult, WeatherSource } from '../domain/ports.js';
import {
  FORECAST_HOURS,
  MAX_FORECAST_DAYS,
  type AirQuery,
  type ForecastQuery,
  type ObservedAir,
  type ObservedConditions,
  type ObservedForecast,
  type ObservedHours,
  type Units,
  type WeatherQuery,
} from '../domain/weather.js';
import { UpstreamClient } from '../../../platform/upstream/upstream-client.js';
import type {
  UpstreamDependencies,
  UpstreamResult,
  UpstreamSettings,
} from '../../../platform/upstream/upstream-call.js';
import {
  AIR_PARAMETER,
  AirAnswer,
  CURRENT_PARAMETER,
  CurrentAnswer,
  DAILY_PARAMETER,
  forecastAnswer,
  HOURLY_PARAMETER,
  hourlyAnswer,
  OpenMeteoRefusal,
} from './open-meteo-objects.js';

/** Open-Meteo's terms: its data is CC BY 4.0, and every use credits it. */
export const OPEN_METEO_ATTRIBUTION =
  'Weather data by Open-Meteo.com (https://open-meteo.com/), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)';
/** Its air-quality data is made from Copernicus's (CAMS), whose licence asks to be named too. */
export const OPEN_METEO_AIR_ATTRIBUTION =
  'Air quality data by Open-Meteo.com (https://open-meteo.com/), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/); contains modified Copernicus Atmosphere Monitoring Service information';
const NAME = 'Open-Meteo';

/**
 * How to reach Open-Meteo (its upstream settings, named `open-meteo` in logs, and its air-quality
 * API's address, `open-meteo-air-quality` in logs, or `off`) and how long its answers stay fresh.
 */
export type OpenMeteoOptions = Omit<UpstreamSettings, 'name'> & {
  readonly airQualityUrl: string;
  readonly currentTtlMs: number;
  readonly forecastTtlMs: number;
  readonly hourlyTtlMs: number;
  readonly airTtlMs: number;
};

const UNIT_PARAMETERS: { readonly [U in Units]: string } = {
  metric: 'temperature_unit=celsius&wind_speed_unit=kmh&precipitation_unit=mm',
  imperial: 'temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch',
};

/** Its reason, cut to a length fit for an error's details. */
const MAX_REASON_CHARACTERS = 300;
const reasonOf = (body: unknown): string | undefined => {
  const refusal = OpenMeteoRefusal.decode(body);
  return E.isRight(refusal) ? refusal.right.reason.slice(0, MAX_REASON_CHARACTERS) : undefined;
};

/** One decoder per number of days, made once. */
const FORECAST_ANSWERS = Array.from({ length: MAX_FORECAST_DAYS + 1 }, (_, days) => forecastAnswer(days));
const HOURLY_ANSWER = hourlyAnswer(FORECAST_HOURS);

/**
 * Open-Meteo's forecast API (`/forecast`) and air-quality API (`/air-quality`, on a host of its
 * own), no key needed. Each question is one path (point, units, time zone, days), and the shared
 * upstream client, one per host, keeps its answer for the TTL of its kind, shares one call among
 * identical concurrent asks, and serves an expired answer as stale when Open-Meteo fails.
 */
export class OpenMeteoWeatherSource implements WeatherSource {
  readonly name = NAME;
  readonly attribution = OPEN_METEO_ATTRIBUTION;
  readonly airAttribution = OPEN_METEO_AIR_ATTRIBUTION;
  private readonly upstream: UpstreamClient;
  /** Absent when the air-quality API is turned off. */
  private readonly airQuality: UpstreamClient | undefined;

  constructor(
    private readonly options: OpenMeteoOptions,
    logger: Logger,
    dependencies: Omit<UpstreamDependencies, 'logger'> = {},
  ) {
    this.upstream = new UpstreamClient({ name: 'open-meteo', ...options }, { ...dependencies, logger });
    this.airQuality =
      options.airQualityUrl === 'off'
        ? undefined
        : new UpstreamClient(
            { name: 'open-meteo-air-quality', ...options, baseUrl: options.airQualityUrl },
            { ...dependencies, logger },
          );
  }

  async current(query: WeatherQuery, context: CallContext = {}): Promise<WeatherResult<ObservedConditions>> {
    const path = `${pathOf(query)}&current=${CURRENT_PARAMETER}`;
    return asWeather(
      await this.upstream.get(path, {
        ttlMs: this.options.currentTtlMs,
        decoder: CurrentAnswer,
        requestId: context.requestId,
        rejectionReason: reasonOf,
      }),
    );
  }

  async forecast(query: ForecastQuery, context: CallContext = {}): Promise<WeatherResult<ObservedForecast>> {
    const decoder = FORECAST_ANSWERS[query.days];
    // The domain asks for 1 to 16 days; anything else would be a question Open-Meteo refuses anyway.
    if (decoder === undefined)
      return { kind: 'rejected', reason: `forecast_days must be from 1 to ${MAX_FORECAST_DAYS}` };
    const path = `${pathOf(query)}&daily=${DAILY_PARAMETER}&forecast_days=${query.days}`;
    return asWeather(
      await this.upstream.get(path, {
        ttlMs: this.options.forecastTtlMs,
        decoder,
        requestId: context.requestId,
        rejectionReason: reasonOf,
      }),
    );
  }

  async hourly(query: WeatherQuery, context: CallContext = {}): Promise<WeatherResult<ObservedHours>> {
    const path = `${pathOf(query)}&hourly=${HOURLY_PARAMETER}&forecast_hours=${FORECAST_HOURS}`;
    return asWeather(
      await this.upstream.get(path, {
        ttlMs: this.options.hourlyTtlMs,
        decoder: HOURLY_ANSWER,
        requestId: context.requestId,
        rejectionReason: reasonOf,
      }),
    );
  }

  async air({ point, timezone }: AirQuery, context: CallContext = {}): Promise<WeatherResult<ObservedAir>> {
    if (this.airQuality === undefined) return { kind: 'off' };
    const path = `/air-quality?latitude=${point.lat}&longitude=${point.lon}&timezone=${encodeURIComponent(timezone)}&current=${AIR_PARAMETER}`;
    return asWeather(
      await this.airQuality.get(path, {
        ttlMs: this.options.airTtlMs,
        decoder: AirAnswer,
        requestId: context.requestId,
        rejectionReason: reasonOf,
      }),
    );
  }
}

const pathOf = ({ point, units, timezone }: WeatherQuery): string =>
  `/forecast?latitude=${point.lat}&longitude=${point.lon}&${UNIT_PARAMETERS[units]}&timezone=${encodeURIComponent(timezone)}`;

function asWeather<A>(result: UpstreamResult<A>): WeatherResult<A> {
  switch (result.kind) {
    case 'found':
      return { kind: 'found', value: result.value, stale: result.freshness === 'stale' };
    case 'rejected':
      // A 400 is Open-Meteo refusing the question; another 4xx (403, 401) is about us, not the question.
      return result.status === 400
        ? { kind: 'rejected', reason: result.reason ?? 'no reason given' }
        : { kind: 'unavailable', reason: 'failure' };
    case 'timeout':
      return { kind: 'unavailable', reason: 'timeout' };
    case 'not-found':
    case 'unavailable':
      return { kind: 'unavailable', reason: 'failure' };
  }
}

/** Open-Meteo turned off by its setting: every question, the air's too, is answered that weather is off here. */
export const OFF_WEATHER_SOURCE: WeatherSource = {
  name: NAME,
  attribution: OPEN_METEO_ATTRIBUTION,
  airAttribution: OPEN_METEO_AIR_ATTRIBUTION,
  current: async () => ({ kind: 'off' }),
  forecast: async () => ({ kind: 'off' }),
  hourly: async () => ({ kind: 'off' }),
  air: async () => ({ kind: 'off' }),
};
