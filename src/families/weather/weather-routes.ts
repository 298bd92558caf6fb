import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { WeatherPermission } from './domain/permissions.js';
import {
  PLACE_FIELDS,
  type GetAirQuality,
  type GetCurrentWeather,
  type GetForecast,
  type GetHourlyForecast,
  type PlaceAsked,
} from './domain/weather-queries.js';
import {
  AUTO_TIME_ZONE,
  DEFAULT_FORECAST_DAYS,
  FORECAST_HOURS,
  MAX_FORECAST_DAYS,
  UNITS,
  type CurrentAir,
  type CurrentWeather,
  type Forecast,
  type HourlyForecast,
} from './domain/weather.js';
import { latitude, latLon, longitude, matching, numberWritten, oneOf, placeName } from '../../platform/http/codecs.js';
import { optional } from '../../platform/http/fields.js';
import { fetchedJson, fetchedJsonEncoding, freshnessHeaders } from '../../platform/http/freshness.js';
import { JsonPartEncodedOnce } from '../../platform/http/json-part-once.js';
import { defineRoute, type Route } from '../../platform/http/route-table.js';

export interface WeatherRouteDependencies {
  readonly getCurrentWeather: GetCurrentWeather;
  readonly getForecast: GetForecast;
  readonly getHourlyForecast: GetHourlyForecast;
  readonly getAirQuality: GetAirQuality;
}

/** The characters of IANA names; which names exist is the domain's question. */
const timeZoneText = matching(/^[A-Za-z0-9_+/-]{1,64}$/, 'an IANA time zone name such as Europe/Paris, or auto');

/** The original service's headers, each mapped to the field it gives. */
const PLACE_HEADERS = { legacyCoords: 'x-coords', legacyCity: 'x-city' } as const;

/** Where: one way of four, two of them the original service's headers. */
const placeFields = {
  [PLACE_FIELDS.lat]: optional(latitude, 'latitude in decimal degrees; with lon'),
  [PLACE_FIELDS.lon]: optional(longitude, 'longitude in decimal degrees; with lat'),
  [PLACE_FIELDS.city]: optional(
    placeName,
    'a place name, optionally followed by ", " and a country (ISO alpha-2 code or English name), found as /location/coords finds it',
  ),
};
const placeHeaders = {
  [PLACE_HEADERS.legacyCoords]: optional(latLon, "the point as the original service took it, 'lat,lon'"),
  [PLACE_HEADERS.legacyCity]: optional(placeName, 'the place name as the original service took it (printable ASCII)'),
};
const timezoneField = optional(
  timeZoneText,
  `the time zone of the times answered: an IANA name, or ${AUTO_TIME_ZONE} (the default), the place's own`,
);

/** What the operations whose measures depend on a system of units take: the place, the units and the time zone. */
const placeInput = {
  query: {
    ...placeFields,
    units: optional(oneOf(UNITS, UNITS.join(' or ')), 'metric (°C, km/h, mm; the default) or imperial (°F, mph, inch)'),
    timezone: timezoneField,
  },
  headers: placeHeaders,
};

/** The air's measures are µg/m³ and index points in every system, so it takes the place and the time zone alone. */
const airInput = { query: { ...placeFields, timezone: timezoneField }, headers: placeHeaders };

/** The headers' values under their fields, the fields named as the client wrote them. */
const fromHeaders = (headers: {
  [PLACE_HEADERS.legacyCoords]?: PlaceAsked['legacyCoords'];
  [PLACE_HEADERS.legacyCity]?: PlaceAsked['legacyCity'];
}) =>
  ({
    legacyCoords: headers[PLACE_HEADERS.legacyCoords],
    legacyCity: headers[PLACE_HEADERS.legacyCity],
    fieldNames: PLACE_HEADERS,
  }) satisfies PlaceAsked;

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);
const measurement = nullable(t.number);
const unitsOf = <K extends string>(names: readonly K[]) =>
  t.strict(Object.fromEntries(names.map((name) => [name, t.string])) as Record<K, t.StringC>);

const location = t.strict({
  name: nullable(t.string),
  country: nullable(t.string),
  lat: t.number,
  lon: t.number,
  timezone: t.string,
  elevation: t.number,
});

const currentWeather = t.strict({
  location,
  time: t.string,
  temperature: measurement,
  apparentTemperature: measurement,
  humidity: measurement,
  precipitation: measurement,
  cloudCover: measurement,
  pressure: measurement,
  windSpeed: measurement,
  windDirection: measurement,
  windGusts: measurement,
  uvIndex: measurement,
  isDay: nullable(t.boolean),
  weatherCode: measurement,
  description: nullable(t.string),
  units: unitsOf([
    'temperature',
    'apparentTemperature',
    'humidity',
    'precipitation',
    'cloudCover',
    'pressure',
    'windSpeed',
    'windDirection',
    'windGusts',
  ]),
  attribution: t.string,
});

const forecast = t.strict({
  location,
  days: t.readonlyArray(
    t.strict({
      date: t.string,
      weatherCode: measurement,
      description: nullable(t.string),
      temperatureMax: measurement,
      temperatureMin: measurement,
      precipitationSum: measurement,
      precipitationProbabilityMax: measurement,
      windSpeedMax: measurement,
      sunrise: nullable(t.string),
      sunset: nullable(t.string),
    }),
  ),
  units: unitsOf([
    'temperatureMax',
    'temperatureMin',
    'precipitationSum',
    'precipitationProbabilityMax',
    'windSpeedMax',
  ]),
  attribution: t.string,
});

const hourlyForecast = t.strict({
  location,
  hours: t.readonlyArray(
    t.strict({
      time: t.string,
      temperature: measurement,
      apparentTemperature: measurement,
      precipitation: measurement,
      precipitationProbability: measurement,
      windSpeed: measurement,
      windDirection: measurement,
      windGusts: measurement,
      weatherCode: measurement,
      description: nullable(t.string),
      uvIndex: measurement,
    }),
  ),
  units: unitsOf([
    'temperature',
    'apparentTemperature',
    'precipitation',
    'precipitationProbability',
    'windSpeed',
    'windDirection',
    'windGusts',
  ]),
  attribution: t.string,
});

const currentAir = t.strict({
  location,
  time: t.string,
  pm25: measurement,
  pm10: measurement,
  ozone: measurement,
  nitrogenDioxide: measurement,
  europeanAqi: measurement,
  usAqi: measurement,
  units: unitsOf(['pm25', 'pm10', 'ozone', 'nitrogenDioxide', 'europeanAqi', 'usAqi']),
  attribution: t.string,
});

/**
 * Beyond what the fields imply: no place at all (every way of giving one is optional alone), a
 * name the gazetteer does not know, weather turned off here, and Open-Meteo failing (in time).
 */
const weatherErrors = [
  'MissingQueryParameter',
  'InformationNotFound',
  'EndpointDisabled',
  'UpstreamUnavailable',
  'UpstreamTimeout',
] as const;

export function weatherRoutes(deps: WeatherRouteDependencies): Route[] {
  /**
   * The source keeps each forecast and the use case describes its hours once, so the same 48
   * hours are answered until the forecast is renewed: their JSON is made once too.
   */
  const hourlyJson = fetchedJsonEncoding(new JsonPartEncodedOnce('hours'));
  return [
    defineRoute({
      method: 'GET',
      path: '/weather/current',
      permission: WeatherPermission.WeatherCurrent,
      summary: 'The weather now at a point or a named place (Open-Meteo)',
      ...placeInput,
      response: currentWeather,
      responseHeaders: freshnessHeaders,
      errors: weatherErrors,
      handle: async ({ query, headers, requestId }) =>
        E.map(fetchedJson<CurrentWeather>)(
          await deps.getCurrentWeather.execute({ ...query, ...fromHeaders(headers) }, { requestId }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/weather/forecast',
      permission: WeatherPermission.WeatherForecast,
      summary: 'A forecast by day, today first, at a point or a named place (Open-Meteo)',
      query: {
        ...placeInput.query,
        days: optional(
          numberWritten(/^\d{1,2}$/, 1, MAX_FORECAST_DAYS, `an integer from 1 to ${MAX_FORECAST_DAYS}`, 'integer'),
          `how many days (default ${DEFAULT_FORECAST_DAYS})`,
        ),
      },
      headers: placeInput.headers,
      response: forecast,
      responseHeaders: freshnessHeaders,
      errors: weatherErrors,
      handle: async ({ query, headers, requestId }) =>
        E.map(fetchedJson<Forecast>)(
          await deps.getForecast.execute({ ...query, ...fromHeaders(headers) }, { requestId }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/weather/hourly',
      permission: WeatherPermission.WeatherHourly,
      summary: `A forecast by hour for the next ${FORECAST_HOURS} hours, the current one first, at a point or a named place (Open-Meteo)`,
      ...placeInput,
      response: hourlyForecast,
      responseHeaders: freshnessHeaders,
      errors: weatherErrors,
      handle: async ({ query, headers, requestId }) =>
        E.map(hourlyJson<HourlyForecast>)(
          await deps.getHourlyForecast.execute({ ...query, ...fromHeaders(headers) }, { requestId }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/weather/air',
      permission: WeatherPermission.WeatherAir,
      summary:
        'The air now at a point or a named place: particulate matter, ozone, nitrogen dioxide and the European and US air quality indexes (Open-Meteo)',
      ...airInput,
      response: currentAir,
      responseHeaders: freshnessHeaders,
      errors: weatherErrors,
      handle: async ({ query, headers, requestId }) =>
        E.map(fetchedJson<CurrentAir>)(
          await deps.getAirQuality.execute({ ...query, ...fromHeaders(headers) }, { requestId }),
        ),
    }),
  ];
}
