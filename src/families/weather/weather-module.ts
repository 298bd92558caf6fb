import { ContainerModule } from 'inversify';
import { weatherRoutes } from './weather-routes.js';
import { OFF_WEATHER_SOURCE, OpenMeteoWeatherSource } from './adapters/open-meteo-weather-source.js';
import { Gazetteer } from '../location/domain/index.js';
import { Clock } from '../../domain/ports.js';
import { WeatherSource } from './domain/ports.js';
import { GetAirQuality, GetCurrentWeather, GetForecast, GetHourlyForecast } from './domain/weather-queries.js';
import { Log, RouteContribution, UpstreamCalls, useCasesIdentifier } from '../../wiring/identifiers.js';
import { bindGazetteer } from '../location/location-module.js';

import type { WeatherSettings } from './weather-settings.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import { upstreamTimingOf } from '../../platform/upstream/upstream-call.js';
export type { WeatherSettings };

/** What the family offers a library user. */
export interface WeatherUseCases {
  readonly getCurrentWeather: GetCurrentWeather;
  readonly getForecast: GetForecast;
  readonly getHourlyForecast: GetHourlyForecast;
  readonly getAirQuality: GetAirQuality;
}
export const WeatherUseCases = useCasesIdentifier<WeatherUseCases>('WeatherUseCases');

/** The weather now, by hour and by day, and the air now, from Open-Meteo (which may be `off`), at points or at places the gazetteer finds. */
export const weatherModule = (settings: WeatherSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide } = typedBindings(options);
    bindGazetteer(options);
    provide(WeatherSource, [Log, Clock, UpstreamCalls], (logger, clock, countCall) =>
      settings.openMeteoUrl === 'off'
        ? OFF_WEATHER_SOURCE
        : new OpenMeteoWeatherSource(
            {
              ...upstreamTimingOf(settings),
              baseUrl: settings.openMeteoUrl,
              airQualityUrl: settings.airQualityUrl,
              currentTtlMs: settings.currentTtlMs,
              forecastTtlMs: settings.forecastTtlMs,
              hourlyTtlMs: settings.hourlyTtlMs,
              airTtlMs: settings.airTtlMs,
              maxEntries: settings.cacheEntries,
            },
            logger,
            { clock, countCall },
          ),
    ).inSingletonScope();
    provide(WeatherUseCases, [WeatherSource, Gazetteer], (source, gazetteer) => ({
      getCurrentWeather: new GetCurrentWeather(source, gazetteer),
      getForecast: new GetForecast(source, gazetteer),
      getHourlyForecast: new GetHourlyForecast(source, gazetteer),
      getAirQuality: new GetAirQuality(source, gazetteer),
    })).inSingletonScope();
    provide(RouteContribution, [WeatherUseCases], (useCases) => ({
      section: {
        name: 'Weather',
        description: 'The weather now, the hours and days ahead, and the air now, from Open-Meteo.',
      },
      routes: weatherRoutes(useCases),
    }));
  });
