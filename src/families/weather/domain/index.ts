/** What other families and library users may use of the weather: its use cases, what they take and answer, its port and its permissions. */
export type { ForecastRequest, GetCurrentWeather, GetForecast, PlaceAsked, WeatherRequest } from './weather-queries.js';
export type {
  Conditions,
  ConditionUnits,
  CurrentWeather,
  DayForecast,
  DayUnits,
  DescribedDay,
  Forecast,
  ForecastQuery,
  ObservedConditions,
  ObservedForecast,
  Point,
  Units,
  WeatherLocation,
  WeatherQuery,
} from './weather.js';
export type { WeatherResult, WeatherSource } from './ports.js';
export { WeatherPermission } from './permissions.js';
