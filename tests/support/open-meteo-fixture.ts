import { readFileSync } from 'node:fs';
import type { WeatherWorld } from '../../src/families/weather/adapters/memory-weather-source.js';
import type {
  AirConditions,
  AirUnits,
  Conditions,
  DayForecast,
  HourForecast,
} from '../../src/families/weather/domain/weather.js';
import { startFixtureServer, type FixtureServer, type Recorded } from './fixture-server.js';

/**
 * Open-Meteo's `/v1/forecast` and `/v1/air-quality` on loopback (one server for both hosts),
 * answering from answers this project wrote in the shape Open-Meteo documents
 * (tests/support/open-meteo/*.json: Berlin's conditions, 48 hours and 16 days of forecast, metric,
 * and its air now): the `current` one when `current=` is asked, the first `forecast_hours` hours
 * of the hourly one when `hourly=` is, the first `forecast_days` days of the daily one when
 * `daily=` is, and the air's on `/air-quality`. As Open-Meteo does, it converts to °F, mp/h and
 * inch when asked, resolves `timezone=auto` (to Europe/Berlin), and refuses a time zone it does
 * not know, a point off the globe or a number of days or hours out of range with 400
 * `{error: true, reason}`.
 */
const read = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`open-meteo/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const CURRENT = read('current-berlin.json') as {
  current: Record<string, number | string>;
  current_units: Record<string, string>;
} & Record<string, unknown>;
const DAILY = read('forecast-berlin-16-days.json') as {
  daily: Record<string, (number | string | null)[]>;
  daily_units: Record<string, string>;
} & Record<string, unknown>;
const HOURLY = read('hourly-berlin-48-hours.json') as {
  hourly: Record<string, (number | string | null)[]>;
  hourly_units: Record<string, string>;
} & Record<string, unknown>;
const AIR = read('air-quality-berlin.json') as {
  current: Record<string, number | string>;
  current_units: Record<string, string>;
} & Record<string, unknown>;

/** The time zones it answers in, as Open-Meteo knows them; `auto` is the place's own. */
export const OPEN_METEO_TIME_ZONES = ['Europe/Berlin', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC', 'GMT'];
export const AUTO_RESOLVES_TO = 'Europe/Berlin';
/** A real zone name that it refuses: what passes our checks and not Open-Meteo's. */
export const REFUSED_TIME_ZONE = 'Antarctica/Troll';
export const INVALID_TIMEZONE_REASON = 'Invalid timezone';

const refusal = (reason: string): Recorded => ({ status: 400, body: { error: true, reason } });

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
/** Open-Meteo's conversions, by the unit a metric value is in. */
const IMPERIAL: Readonly<Record<string, { unit: string; convert: (value: number) => number }>> = {
  '°C': { unit: '°F', convert: (celsius) => round((celsius * 9) / 5 + 32, 1) },
  'km/h': { unit: 'mp/h', convert: (kmh) => round(kmh / 1.609344, 1) },
  mm: { unit: 'inch', convert: (mm) => round(mm / 25.4, 3) },
};

/** A variable's values and unit in the system asked for. */
function inUnits<V>(value: V, unit: string, imperial: boolean): { value: V; unit: string } {
  const conversion = imperial ? IMPERIAL[unit] : undefined;
  if (!conversion) return { value, unit };
  const convert = (one: unknown) => (typeof one === 'number' ? conversion.convert(one) : one);
  return { value: (Array.isArray(value) ? value.map(convert) : convert(value)) as V, unit: conversion.unit };
}

function series<V>(
  values: Record<string, V>,
  units: Record<string, string>,
  imperial: boolean,
): { values: Record<string, V>; units: Record<string, string> } {
  const out = { values: { ...values }, units: { ...units } };
  for (const [name, unit] of Object.entries(units)) {
    if (!(name in values)) continue;
    const converted = inUnits(values[name]!, unit, imperial);
    out.values[name] = converted.value;
    out.units[name] = converted.unit;
  }
  return out;
}

/** Open-Meteo's longest forecast, in hours (16 days). */
const MAX_FORECAST_HOURS = 384;

/** The first `count` values of each series. */
const firstOf = <V>(values: Record<string, V[]>, count: number): Record<string, V[]> =>
  Object.fromEntries(Object.entries(values).map(([name, all]) => [name, all.slice(0, count)]));

/** What Open-Meteo answers to a path of `/forecast` or `/air-quality`. */
export function openMeteoAnswer(path: string): Recorded | undefined {
  const url = new URL(path, 'http://open-meteo.test');
  if (url.pathname !== '/forecast' && url.pathname !== '/air-quality') return undefined;
  const parameter = (name: string) => url.searchParams.get(name);
  const latitude = Number(parameter('latitude') ?? NaN);
  const longitude = Number(parameter('longitude') ?? NaN);
  if (!(Math.abs(latitude) <= 90))
    return refusal(`Latitude must be in range of -90 to 90°. Given: ${parameter('latitude')}.`);
  if (!(Math.abs(longitude) <= 180))
    return refusal(`Longitude must be in range of -180 to 180°. Given: ${parameter('longitude')}.`);
  const asked = parameter('timezone') ?? 'GMT';
  const timezone = asked === 'auto' ? AUTO_RESOLVES_TO : asked;
  if (!OPEN_METEO_TIME_ZONES.includes(timezone)) return refusal(INVALID_TIMEZONE_REASON);
  const imperial = parameter('temperature_unit') === 'fahrenheit';
  const place = {
    latitude,
    longitude,
    timezone,
    timezone_abbreviation: timezone === AUTO_RESOLVES_TO ? 'GMT+1' : timezone,
    utc_offset_seconds: timezone === AUTO_RESOLVES_TO ? 3600 : 0,
  };

  if (url.pathname === '/air-quality') {
    if (parameter('current') === null) return refusal('Nothing to do: ask for current air-quality variables.');
    return { body: { ...AIR, ...place } };
  }
  if (parameter('current') !== null) {
    const { values, units } = series(CURRENT.current, CURRENT.current_units, imperial);
    return { body: { ...CURRENT, ...place, current_units: units, current: values } };
  }
  if (parameter('hourly') !== null) {
    const hours = Number(parameter('forecast_hours') ?? MAX_FORECAST_HOURS);
    if (!Number.isInteger(hours) || hours < 0 || hours > MAX_FORECAST_HOURS)
      return refusal(`Forecast hours is invalid. Allowed range 0 to ${MAX_FORECAST_HOURS}.`);
    const { values, units } = series(HOURLY.hourly, HOURLY.hourly_units, imperial);
    return { body: { ...HOURLY, ...place, hourly_units: units, hourly: firstOf(values, hours) } };
  }
  if (parameter('daily') !== null) {
    const days = Number(parameter('forecast_days') ?? 7);
    if (!Number.isInteger(days) || days < 0 || days > 16)
      return refusal('Forecast days is invalid. Allowed range 0 to 16.');
    const { values, units } = series(DAILY.daily, DAILY.daily_units, imperial);
    return { body: { ...DAILY, ...place, daily_units: units, daily: firstOf(values, days) } };
  }
  return refusal('Nothing to do: ask for current, hourly or daily variables.');
}

export type OpenMeteoFixture = FixtureServer;

export const startOpenMeteoFixture = (): Promise<OpenMeteoFixture> =>
  startFixtureServer({ recordings: openMeteoAnswer });

/** Settings that send the weather family to `fixture`, for the forecast and the air alike. */
export const openMeteoAt = (fixture: { readonly url: string }): Record<string, string> => ({
  UTILITY_API_OPEN_METEO_URL: fixture.url,
  UTILITY_API_OPEN_METEO_AIR_QUALITY_URL: fixture.url,
});

/** Berlin's conditions as the domain holds them, metric: the recorded answer, written out by hand. */
export const BERLIN_NOW: Conditions = {
  time: '2026-11-23T10:15',
  temperature: 4.2,
  apparentTemperature: 0.9,
  humidity: 81,
  precipitation: 0,
  cloudCover: 100,
  pressure: 1018.4,
  windSpeed: 14.8,
  windDirection: 245,
  windGusts: 31.3,
  uvIndex: 0.45,
  isDay: true,
  weatherCode: 3,
};
export const BERLIN_FIRST_DAY: DayForecast = {
  date: '2026-11-23',
  weatherCode: 3,
  temperatureMax: 6.1,
  temperatureMin: 1.8,
  precipitationSum: 0,
  precipitationProbabilityMax: 12,
  windSpeedMax: 17.3,
  sunrise: '2026-11-23T07:41',
  sunset: '2026-11-23T16:02',
};
/** The recorded hourly forecast's first hour, metric, written out by hand. */
export const BERLIN_FIRST_HOUR: HourForecast = {
  time: '2026-11-23T10:00',
  temperature: 4.2,
  apparentTemperature: 0.6,
  precipitation: 0,
  precipitationProbability: 10,
  windSpeed: 12.5,
  windDirection: 245,
  windGusts: 25.6,
  weatherCode: 3,
  uvIndex: 0.44,
};
/** Berlin's air, as the recorded answer gives it. */
export const BERLIN_AIR: AirConditions = {
  time: '2026-11-23T10:00',
  pm25: 11.8,
  pm10: 17.3,
  ozone: 34,
  nitrogenDioxide: 24.6,
  europeanAqi: 38,
  usAqi: 49,
};
export const AIR_UNITS: AirUnits = {
  pm25: 'μg/m³',
  pm10: 'μg/m³',
  ozone: 'μg/m³',
  nitrogenDioxide: 'μg/m³',
  europeanAqi: 'EAQI',
  usAqi: 'USAQI',
};
export const METRIC_CONDITION_UNITS = {
  temperature: '°C',
  apparentTemperature: '°C',
  humidity: '%',
  precipitation: 'mm',
  cloudCover: '%',
  pressure: 'hPa',
  windSpeed: 'km/h',
  windDirection: '°',
  windGusts: 'km/h',
};
export const IMPERIAL_CONDITION_UNITS = {
  ...METRIC_CONDITION_UNITS,
  temperature: '°F',
  apparentTemperature: '°F',
  precipitation: 'inch',
  windSpeed: 'mp/h',
  windGusts: 'mp/h',
};
export const METRIC_DAY_UNITS = {
  temperatureMax: '°C',
  temperatureMin: '°C',
  precipitationSum: 'mm',
  precipitationProbabilityMax: '%',
  windSpeedMax: 'km/h',
};
export const IMPERIAL_DAY_UNITS = {
  ...METRIC_DAY_UNITS,
  temperatureMax: '°F',
  temperatureMin: '°F',
  precipitationSum: 'inch',
  windSpeedMax: 'mp/h',
};

export const METRIC_HOUR_UNITS = {
  temperature: '°C',
  apparentTemperature: '°C',
  precipitation: 'mm',
  precipitationProbability: '%',
  windSpeed: 'km/h',
  windDirection: '°',
  windGusts: 'km/h',
};
export const IMPERIAL_HOUR_UNITS = {
  ...METRIC_HOUR_UNITS,
  temperature: '°F',
  apparentTemperature: '°F',
  precipitation: 'inch',
  windSpeed: 'mp/h',
  windGusts: 'mp/h',
};

/** The recorded hourly forecast's hours as the domain holds them, in either system: for the memory source. */
function hoursOf(imperial: boolean): HourForecast[] {
  const { values } = series(HOURLY.hourly, HOURLY.hourly_units, imperial);
  const at = (name: string, hour: number) => values[name]![hour] as never;
  return (values.time as string[]).map((time, hour) => ({
    time,
    temperature: at('temperature_2m', hour),
    apparentTemperature: at('apparent_temperature', hour),
    precipitation: at('precipitation', hour),
    precipitationProbability: at('precipitation_probability', hour),
    windSpeed: at('wind_speed_10m', hour),
    windDirection: at('wind_direction_10m', hour),
    windGusts: at('wind_gusts_10m', hour),
    weatherCode: at('weather_code', hour),
    uvIndex: at('uv_index', hour),
  }));
}

/** The recorded forecast's days as the domain holds them, in either system: for the memory source. */
function daysOf(imperial: boolean): DayForecast[] {
  const { values } = series(DAILY.daily, DAILY.daily_units, imperial);
  const at = (name: string, day: number) => values[name]![day] as never;
  return (values.time as string[]).map((date, day) => ({
    date,
    weatherCode: at('weather_code', day),
    temperatureMax: at('temperature_2m_max', day),
    temperatureMin: at('temperature_2m_min', day),
    precipitationSum: at('precipitation_sum', day),
    precipitationProbabilityMax: at('precipitation_probability_max', day),
    windSpeedMax: at('wind_speed_10m_max', day),
    sunrise: at('sunrise', day),
    sunset: at('sunset', day),
  }));
}

function conditionsOf(imperial: boolean): Conditions {
  const { values } = series(CURRENT.current, CURRENT.current_units, imperial);
  const at = (name: string) => values[name] as never;
  return {
    ...BERLIN_NOW,
    temperature: at('temperature_2m'),
    apparentTemperature: at('apparent_temperature'),
    precipitation: at('precipitation'),
    windSpeed: at('wind_speed_10m'),
    windGusts: at('wind_gusts_10m'),
  };
}

/** The fixture's world, for the memory source: the same answers to the same questions. */
export const BERLIN_WORLD: WeatherWorld = {
  timezone: AUTO_RESOLVES_TO,
  elevation: 38,
  timeZones: OPEN_METEO_TIME_ZONES,
  current: {
    metric: { conditions: conditionsOf(false), units: METRIC_CONDITION_UNITS },
    imperial: { conditions: conditionsOf(true), units: IMPERIAL_CONDITION_UNITS },
  },
  forecast: {
    metric: { days: daysOf(false), units: METRIC_DAY_UNITS },
    imperial: { days: daysOf(true), units: IMPERIAL_DAY_UNITS },
  },
  hourly: {
    metric: { hours: hoursOf(false), units: METRIC_HOUR_UNITS },
    imperial: { hours: hoursOf(true), units: IMPERIAL_HOUR_UNITS },
  },
  air: { air: BERLIN_AIR, units: AIR_UNITS },
};
