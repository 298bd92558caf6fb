import { defineFamily } from '../../wiring/family.js';
import { weatherSamples } from './weather-samples.js';
import { WeatherPermission } from './domain/permissions.js';
import { weatherModule, WeatherUseCases } from './weather-module.js';
import { weatherSettings } from './weather-settings.js';

/** Open-Meteo's conditions and forecasts, by place or point. */
export const weather = defineFamily({
  name: 'weather',
  settings: weatherSettings,
  permissions: WeatherPermission,
  module: (settings) => weatherModule(settings),
  useCases: WeatherUseCases,
  samples: weatherSamples,
});
