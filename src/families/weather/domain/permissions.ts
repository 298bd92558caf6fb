/** The permissions of the weather family: what its routes and use cases ask of who calls them. */
export const WeatherPermission = {
  WeatherCurrent: 'Weather::Current',
  WeatherForecast: 'Weather::Forecast',
  WeatherHourly: 'Weather::Hourly',
  WeatherAir: 'Weather::Air',
} as const;
