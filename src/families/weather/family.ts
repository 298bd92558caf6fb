import { defineFamily } from '../../composition/family.js';
import { weatherModule, WeatherUseCases } from './weather-module.js';
import { weatherSettings } from './weather-settings.js';

/** Open-Meteo's conditions and forecasts, by place or point. */
export const weather = defineFamily({
  name: 'weather',
  settings: weatherSettings,
  module: (settings) => weatherModule(settings),
  useCases: WeatherUseCases,
});
