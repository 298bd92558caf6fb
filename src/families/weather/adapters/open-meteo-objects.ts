import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type {
  AirConditions,
  Conditions,
  DayForecast,
  HourForecast,
  ObservedAir,
  ObservedConditions,
  ObservedForecast,
  ObservedHours,
} from '../domain/weather.js';

/**
 * Open-Meteo's `/v1/forecast` and `/v1/air-quality` answers, as its documentation describes them,
 * decoded into the domain's shapes. Each variable asked for comes back under its own name in
 * `current` (one value), `hourly` or `daily` (one value per hour or day, beside `time`), with its
 * unit in `current_units` / `hourly_units` / `daily_units`; a value it does not have is null.
 */

/** The variables asked of `current`, by the domain's name for each. */
export const CURRENT_VARIABLES = {
  temperature: 'temperature_2m',
  apparentTemperature: 'apparent_temperature',
  humidity: 'relative_humidity_2m',
  precipitation: 'precipitation',
  cloudCover: 'cloud_cover',
  pressure: 'pressure_msl',
  windSpeed: 'wind_speed_10m',
  windDirection: 'wind_direction_10m',
  windGusts: 'wind_gusts_10m',
} as const;

/** The variables asked of `daily` that carry a unit, by the domain's name for each. */
export const DAILY_MEASURES = {
  temperatureMax: 'temperature_2m_max',
  temperatureMin: 'temperature_2m_min',
  precipitationSum: 'precipitation_sum',
  precipitationProbabilityMax: 'precipitation_probability_max',
  windSpeedMax: 'wind_speed_10m_max',
} as const;

/** The variables asked of `hourly` that carry a unit, by the domain's name for each. */
export const HOURLY_MEASURES = {
  temperature: 'temperature_2m',
  apparentTemperature: 'apparent_temperature',
  precipitation: 'precipitation',
  precipitationProbability: 'precipitation_probability',
  windSpeed: 'wind_speed_10m',
  windDirection: 'wind_direction_10m',
  windGusts: 'wind_gusts_10m',
} as const;

/** The air-quality API's variables of `current`, by the domain's name for each; the indexes' units are their names (`EAQI`). */
export const AIR_VARIABLES = {
  pm25: 'pm2_5',
  pm10: 'pm10',
  ozone: 'ozone',
  nitrogenDioxide: 'nitrogen_dioxide',
  europeanAqi: 'european_aqi',
  usAqi: 'us_aqi',
} as const;

// The UV index has no unit (Open-Meteo gives it as ""), so it is asked beside the measures, like the weather code.
export const CURRENT_PARAMETER = [...Object.values(CURRENT_VARIABLES), 'uv_index', 'is_day', 'weather_code'].join(',');
export const DAILY_PARAMETER = ['weather_code', ...Object.values(DAILY_MEASURES), 'sunrise', 'sunset'].join(',');
export const HOURLY_PARAMETER = [...Object.values(HOURLY_MEASURES), 'weather_code', 'uv_index'].join(',');
export const AIR_PARAMETER = Object.values(AIR_VARIABLES).join(',');

const measurement = t.union([t.number, t.null]);
const localTime = t.union([t.string, t.null]);
const situation = { timezone: t.string, elevation: t.number };

type Named<V extends Record<string, string>, C extends t.Mixed> = { [K in V[keyof V]]: C };
const each = <V extends Record<string, string>, C extends t.Mixed>(variables: V, codec: C): Named<V, C> =>
  Object.fromEntries(Object.values(variables).map((name) => [name, codec])) as Named<V, C>;

/** `{ourName: valueOf(theirName)}` for every variable of `variables`. */
const renamed = <V extends Record<string, string>, A>(
  variables: V,
  valueOf: (theirs: V[keyof V]) => A,
): { [K in keyof V]: A } =>
  Object.fromEntries(Object.entries(variables).map(([ours, theirs]) => [ours, valueOf(theirs as V[keyof V])])) as {
    [K in keyof V]: A;
  };

/** A decoder that reads with `codec`, then turns what it read into the domain's value, or says why it cannot. */
function decodedAs<A, B>(
  name: string,
  codec: t.Decoder<unknown, A>,
  make: (read: A) => E.Either<string, B>,
): t.Decoder<unknown, B> {
  const validate: t.Validate<unknown, B> = (u, context) =>
    E.chain((read: A) => E.mapLeft((message: string): t.Errors => [{ value: u, context, message }])(make(read)))(
      codec.validate(u, context),
    );
  return { name, validate, decode: (u) => validate(u, [{ key: '', type: codec, actual: u }]) };
}

const OpenMeteoCurrent = t.type({
  ...situation,
  current: t.type({
    time: t.string,
    ...each(CURRENT_VARIABLES, measurement),
    uv_index: measurement,
    is_day: t.union([t.literal(0), t.literal(1), t.null]),
    weather_code: measurement,
  }),
  current_units: t.type(each(CURRENT_VARIABLES, t.string)),
});

export const CurrentAnswer: t.Decoder<unknown, ObservedConditions> = decodedAs(
  'an Open-Meteo current answer',
  OpenMeteoCurrent,
  ({ timezone, elevation, current, current_units }) => {
    const conditions: Conditions = {
      time: current.time,
      ...renamed(CURRENT_VARIABLES, (name) => current[name]),
      uvIndex: current.uv_index,
      isDay: current.is_day === null ? null : current.is_day === 1,
      weatherCode: current.weather_code,
    };
    return E.right({
      timezone,
      elevation,
      conditions,
      units: renamed(CURRENT_VARIABLES, (name) => current_units[name]),
    });
  },
);

const OpenMeteoDaily = t.type({
  ...situation,
  daily: t.type({
    time: t.array(t.string),
    weather_code: t.array(measurement),
    ...each(DAILY_MEASURES, t.array(measurement)),
    sunrise: t.array(localTime),
    sunset: t.array(localTime),
  }),
  daily_units: t.type(each(DAILY_MEASURES, t.string)),
});

/** A forecast answer of exactly `days` days: every daily series must hold one value per day. */
export const forecastAnswer = (days: number): t.Decoder<unknown, ObservedForecast> =>
  decodedAs(`an Open-Meteo forecast of ${days} days`, OpenMeteoDaily, ({ timezone, elevation, daily, daily_units }) => {
    if (Object.values(daily).some((series) => series.length !== days))
      return E.left(`every daily series must hold ${days} values`);
    const forecast: DayForecast[] = daily.time.map((date, day) => ({
      date,
      weatherCode: daily.weather_code[day] ?? null,
      ...renamed(DAILY_MEASURES, (name) => daily[name][day] ?? null),
      sunrise: daily.sunrise[day] ?? null,
      sunset: daily.sunset[day] ?? null,
    }));
    return E.right({
      timezone,
      elevation,
      days: forecast,
      units: renamed(DAILY_MEASURES, (name) => daily_units[name]),
    });
  });

const OpenMeteoHourly = t.type({
  ...situation,
  hourly: t.type({
    time: t.array(t.string),
    ...each(HOURLY_MEASURES, t.array(measurement)),
    weather_code: t.array(measurement),
    uv_index: t.array(measurement),
  }),
  hourly_units: t.type(each(HOURLY_MEASURES, t.string)),
});

/** An hourly forecast of exactly `hours` hours: every hourly series must hold one value per hour. */
export const hourlyAnswer = (hours: number): t.Decoder<unknown, ObservedHours> =>
  decodedAs(
    `an Open-Meteo hourly forecast of ${hours} hours`,
    OpenMeteoHourly,
    ({ timezone, elevation, hourly, hourly_units }) => {
      if (Object.values(hourly).some((series) => series.length !== hours))
        return E.left(`every hourly series must hold ${hours} values`);
      const forecast: HourForecast[] = hourly.time.map((time, hour) => ({
        time,
        ...renamed(HOURLY_MEASURES, (name) => hourly[name][hour] ?? null),
        weatherCode: hourly.weather_code[hour] ?? null,
        uvIndex: hourly.uv_index[hour] ?? null,
      }));
      return E.right({
        timezone,
        elevation,
        hours: forecast,
        units: renamed(HOURLY_MEASURES, (name) => hourly_units[name]),
      });
    },
  );

const OpenMeteoAir = t.type({
  ...situation,
  current: t.type({ time: t.string, ...each(AIR_VARIABLES, measurement) }),
  current_units: t.type(each(AIR_VARIABLES, t.string)),
});

export const AirAnswer: t.Decoder<unknown, ObservedAir> = decodedAs(
  'an Open-Meteo air-quality answer',
  OpenMeteoAir,
  ({ timezone, elevation, current, current_units }) => {
    const air: AirConditions = { time: current.time, ...renamed(AIR_VARIABLES, (name) => current[name]) };
    return E.right({ timezone, elevation, air, units: renamed(AIR_VARIABLES, (name) => current_units[name]) });
  },
);

/** Open-Meteo refuses a question with 400 and `{"error": true, "reason": "..."}`. */
export const OpenMeteoRefusal = t.type({ error: t.literal(true), reason: t.string });
