/** The permissions of the weather family: what its routes and use cases ask of who calls them. */
export const WeatherPermission = {
  WeatherCurrent: 'Weather::Current',
  WeatherForecast: 'Weather::Forecast',
} as const;
