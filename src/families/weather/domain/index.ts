/** What other families and library users may use of the weather: its use cases, what they take and answer, its port and its permissions. */
export type {
  AirRequest,
  ForecastRequest,
  GetAirQuality,
  GetCurrentWeather,
  GetForecast,
  GetHourlyForecast,
  PlaceAsked,
  WeatherRequest,
} from './weather-queries.js';
export type {
  AirConditions,
  AirQuery,
  AirUnits,
  Conditions,
  ConditionUnits,
  CurrentAir,
  CurrentWeather,
  DayForecast,
  DayUnits,
  DescribedDay,
  DescribedHour,
  Forecast,
  ForecastQuery,
  HourForecast,
  HourlyForecast,
  HourUnits,
  ObservedAir,
  ObservedConditions,
  ObservedForecast,
  ObservedHours,
  Point,
  Units,
  WeatherLocation,
  WeatherQuery,
} from './weather.js';
export type { WeatherResult, WeatherSource } from './ports.js';
export { WeatherPermission } from './permissions.js';
