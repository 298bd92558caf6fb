import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { weatherRoutes } from './weather-routes.js';
import { OFF_WEATHER_SOURCE, OpenMeteoWeatherSource } from './adapters/open-meteo-weather-source.js';
import { Gazetteer } from '../location/domain/index.js';
import { Clock } from '../../domain/ports.js';
import { WeatherSource } from './domain/ports.js';
import { GetCurrentWeather, GetForecast } from './domain/weather-queries.js';
import { Log, RouteContribution, UpstreamCalls, useCasesIdentifier } from '../../composition/identifiers.js';
import { bindGazetteer } from '../location/location-module.js';

import type { WeatherSettings } from './weather-settings.js';
export type { WeatherSettings };

/** What the family offers a library user. */
export interface WeatherUseCases {
  readonly getCurrentWeather: GetCurrentWeather;
  readonly getForecast: GetForecast;
}
export const WeatherUseCases = useCasesIdentifier<WeatherUseCases>('WeatherUseCases');

/** The weather now and by day from Open-Meteo (which may be `off`), at points or at places the gazetteer finds. */
export const weatherModule = ({
  openMeteoUrl,
  timeoutMs,
  currentTtlMs,
  forecastTtlMs,
  cacheEntries,
  backoffMs,
  failureTtlMs,
  hostTtlMs,
}: WeatherSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { bind } = options;
    bindGazetteer(options);
    bind(WeatherSource)
      .toResolvedValue(
        (logger: Logger, clock: Clock, countCall: UpstreamCalls): WeatherSource =>
          openMeteoUrl === 'off'
            ? OFF_WEATHER_SOURCE
            : new OpenMeteoWeatherSource(
                {
                  baseUrl: openMeteoUrl,
                  deadlineMs: timeoutMs,
                  currentTtlMs,
                  forecastTtlMs,
                  maxEntries: cacheEntries,
                  defaultBackoffMs: backoffMs,
                  failureTtlMs,
                  hostTtlMs,
                },
                logger,
                { clock, countCall },
              ),
        [Log, Clock, UpstreamCalls],
      )
      .inSingletonScope();
    bind(GetCurrentWeather)
      .toResolvedValue(
        (source: WeatherSource, gazetteer: Gazetteer) => new GetCurrentWeather(source, gazetteer),
        [WeatherSource, Gazetteer],
      )
      .inSingletonScope();
    bind(GetForecast)
      .toResolvedValue(
        (source: WeatherSource, gazetteer: Gazetteer) => new GetForecast(source, gazetteer),
        [WeatherSource, Gazetteer],
      )
      .inSingletonScope();
    bind(WeatherUseCases).toResolvedValue(
      (getCurrentWeather: GetCurrentWeather, getForecast: GetForecast): WeatherUseCases => ({
        getCurrentWeather,
        getForecast,
      }),
      [GetCurrentWeather, GetForecast],
    );
    bind(RouteContribution).toResolvedValue(
      (getCurrentWeather: GetCurrentWeather, getForecast: GetForecast): RouteContribution => ({
        routes: weatherRoutes({ getCurrentWeather, getForecast }),
      }),
      [GetCurrentWeather, GetForecast],
    );
  });
