/**
 * Weather as the API answers it, in its own shapes whatever the source: the conditions now, a
 * forecast by hour and by day, and the air now, at a point, in the units and time zone asked for.
 */

export const UNITS = ['metric', 'imperial'] as const;
/** metric: °C, km/h, mm; imperial: °F, mph, inch. Pressure is hPa and humidity % in both. */
export type Units = (typeof UNITS)[number];

export const DEFAULT_UNITS: Units = 'metric';
/** The place's own time zone, as the source finds it from the point. */
export const AUTO_TIME_ZONE = 'auto';
export const DEFAULT_FORECAST_DAYS = 7;
export const MAX_FORECAST_DAYS = 16;
/** An hourly forecast covers this many hours, the current one first. */
export const FORECAST_HOURS = 48;

/** Points are asked about to 0.01° (about 1 km): nearby asks share one answer, and a forecast is no finer anyway. */
export const POINT_PRECISION_DEGREES = 0.01;

export interface Point {
  readonly lat: number;
  readonly lon: number;
}

/** What a source is asked: a point already rounded to {@link POINT_PRECISION_DEGREES}. */
export interface WeatherQuery {
  readonly point: Point;
  readonly units: Units;
  /** An IANA time zone name, or `auto`. */
  readonly timezone: string;
}

export interface ForecastQuery extends WeatherQuery {
  /** From 1 to {@link MAX_FORECAST_DAYS}, today first. */
  readonly days: number;
}

/** What a source is asked about the air: its measures have one unit each, whatever the system of units. */
export type AirQuery = Omit<WeatherQuery, 'units'>;

/** Where the source places the point: its time zone (`auto` resolved) and the ground's height in metres. */
export interface Situation {
  readonly timezone: string;
  readonly elevation: number;
}

/**
 * Measurements are null where the source has none for that time and place. Times are local to the
 * time zone answered, ISO 8601 without an offset (`2026-11-23T10:15`), as the source gives them.
 */
export interface Conditions {
  readonly time: string;
  readonly temperature: number | null;
  readonly apparentTemperature: number | null;
  /** Relative humidity, %. */
  readonly humidity: number | null;
  readonly precipitation: number | null;
  /** % of the sky. */
  readonly cloudCover: number | null;
  /** At sea level, hPa. */
  readonly pressure: number | null;
  readonly windSpeed: number | null;
  /** Where the wind comes from, degrees clockwise from north. */
  readonly windDirection: number | null;
  readonly windGusts: number | null;
  /** The UV index (WHO scale, no unit): 0 at night, 11 and more extreme. */
  readonly uvIndex: number | null;
  readonly isDay: boolean | null;
  /** A WMO weather interpretation code (see {@link describeWeatherCode}). */
  readonly weatherCode: number | null;
}

/** The unit of each measurement of {@link Conditions}, as the source names it (`°C`, `km/h`, `mp/h`). */
export type ConditionUnits = Readonly<
  Record<
    | 'temperature'
    | 'apparentTemperature'
    | 'humidity'
    | 'precipitation'
    | 'cloudCover'
    | 'pressure'
    | 'windSpeed'
    | 'windDirection'
    | 'windGusts',
    string
  >
>;

export interface DayForecast {
  /** The local date, `2026-11-23`. */
  readonly date: string;
  readonly weatherCode: number | null;
  readonly temperatureMax: number | null;
  readonly temperatureMin: number | null;
  readonly precipitationSum: number | null;
  /** %. */
  readonly precipitationProbabilityMax: number | null;
  readonly windSpeedMax: number | null;
  /** Local times; null where the sun does not rise or set that day. */
  readonly sunrise: string | null;
  readonly sunset: string | null;
}

export type DayUnits = Readonly<
  Record<
    'temperatureMax' | 'temperatureMin' | 'precipitationSum' | 'precipitationProbabilityMax' | 'windSpeedMax',
    string
  >
>;

/** One hour of an hourly forecast; `time` is the hour's start, local. */
export interface HourForecast {
  readonly time: string;
  readonly temperature: number | null;
  readonly apparentTemperature: number | null;
  /** Over the hour. */
  readonly precipitation: number | null;
  /** %. */
  readonly precipitationProbability: number | null;
  readonly windSpeed: number | null;
  /** Where the wind comes from, degrees clockwise from north. */
  readonly windDirection: number | null;
  readonly windGusts: number | null;
  readonly weatherCode: number | null;
  /** No unit, as in {@link Conditions}. */
  readonly uvIndex: number | null;
}

export type HourUnits = Readonly<
  Record<
    | 'temperature'
    | 'apparentTemperature'
    | 'precipitation'
    | 'precipitationProbability'
    | 'windSpeed'
    | 'windDirection'
    | 'windGusts',
    string
  >
>;

/** The air now: pollutants near the ground, and the two indexes made of them. */
export interface AirConditions {
  readonly time: string;
  /** Particulate matter under 2.5 µm, µg/m³. */
  readonly pm25: number | null;
  /** Particulate matter under 10 µm, µg/m³. */
  readonly pm10: number | null;
  /** µg/m³. */
  readonly ozone: number | null;
  /** µg/m³. */
  readonly nitrogenDioxide: number | null;
  /** The European Environment Agency's index: 0-20 good, up to 100 extremely poor and above. */
  readonly europeanAqi: number | null;
  /** The US EPA's index: 0-50 good, up to 500. */
  readonly usAqi: number | null;
}

export type AirUnits = Readonly<Record<Exclude<keyof AirConditions, 'time'>, string>>;

/** What a source answers for the conditions now. */
export interface ObservedConditions extends Situation {
  readonly conditions: Conditions;
  readonly units: ConditionUnits;
}

/** What a source answers for a forecast: one entry per day asked. */
export interface ObservedForecast extends Situation {
  readonly days: readonly DayForecast[];
  readonly units: DayUnits;
}

/** What a source answers for an hourly forecast: {@link FORECAST_HOURS} hours, the current one first. */
export interface ObservedHours extends Situation {
  readonly hours: readonly HourForecast[];
  readonly units: HourUnits;
}

/** What a source answers for the air now. */
export interface ObservedAir extends Situation {
  readonly air: AirConditions;
  readonly units: AirUnits;
}

/** The place an answer is about: its name and country when it was asked by name, and the point asked (rounded). */
export interface WeatherLocation extends Point, Situation {
  readonly name: string | null;
  /** ISO 3166-1 alpha-2. */
  readonly country: string | null;
}

export interface CurrentWeather extends Conditions {
  readonly location: WeatherLocation;
  /** The weather code in words (`clear sky`), null for a code WMO does not define. */
  readonly description: string | null;
  readonly units: ConditionUnits;
  /** The credit the source's licence requires, to show with the data. */
  readonly attribution: string;
}

export interface DescribedDay extends DayForecast {
  readonly description: string | null;
}

export interface Forecast {
  readonly location: WeatherLocation;
  readonly days: readonly DescribedDay[];
  readonly units: DayUnits;
  readonly attribution: string;
}

export interface DescribedHour extends HourForecast {
  readonly description: string | null;
}

export interface HourlyForecast {
  readonly location: WeatherLocation;
  readonly hours: readonly DescribedHour[];
  readonly units: HourUnits;
  readonly attribution: string;
}

export interface CurrentAir extends AirConditions {
  readonly location: WeatherLocation;
  readonly units: AirUnits;
  /** The credit the source's licence, and that of the data it is made from, require. */
  readonly attribution: string;
}

/** The WMO weather interpretation codes (WMO 4677, as Open-Meteo uses them) in words. */
const WEATHER_CODES: ReadonlyMap<number, string> = new Map([
  [0, 'clear sky'],
  [1, 'mainly clear'],
  [2, 'partly cloudy'],
  [3, 'overcast'],
  [45, 'fog'],
  [48, 'depositing rime fog'],
  [51, 'light drizzle'],
  [53, 'moderate drizzle'],
  [55, 'dense drizzle'],
  [56, 'light freezing drizzle'],
  [57, 'dense freezing drizzle'],
  [61, 'slight rain'],
  [63, 'moderate rain'],
  [65, 'heavy rain'],
  [66, 'light freezing rain'],
  [67, 'heavy freezing rain'],
  [71, 'slight snow fall'],
  [73, 'moderate snow fall'],
  [75, 'heavy snow fall'],
  [77, 'snow grains'],
  [80, 'slight rain showers'],
  [81, 'moderate rain showers'],
  [82, 'violent rain showers'],
  [85, 'slight snow showers'],
  [86, 'heavy snow showers'],
  [95, 'thunderstorm'],
  [96, 'thunderstorm with slight hail'],
  [99, 'thunderstorm with heavy hail'],
]);

export const describeWeatherCode = (code: number | null): string | null =>
  code === null ? null : (WEATHER_CODES.get(code) ?? null);

/** Every code {@link describeWeatherCode} knows, in order. */
export const WEATHER_CODE_LIST: readonly number[] = [...WEATHER_CODES.keys()];
