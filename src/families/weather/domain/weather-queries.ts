import * as E from 'fp-ts/lib/Either.js';
import type { CallContext } from '../../../domain/call-context.js';
import { invalidInput, missingInput, upstreamFailure, type DomainError } from '../../../domain/errors.js';
import type { Fetched } from '../../../domain/fetched.js';
import { checkCoordinates, findPlacesNamed } from '../../location/domain/index.js';
import type { Gazetteer } from '../../location/domain/index.js';
import type { WeatherResult, WeatherSource } from './ports.js';
import { isTimeZoneName } from './time-zones.js';
import {
  AUTO_TIME_ZONE,
  DEFAULT_FORECAST_DAYS,
  DEFAULT_UNITS,
  describeWeatherCode,
  MAX_FORECAST_DAYS,
  POINT_PRECISION_DEGREES,
  UNITS,
  type AirQuery,
  type CurrentAir,
  type CurrentWeather,
  type DayForecast,
  type DescribedDay,
  type DescribedHour,
  type Forecast,
  type ForecastQuery,
  type HourForecast,
  type HourlyForecast,
  type Point,
  type Situation,
  type Units,
  type WeatherLocation,
  type WeatherQuery,
} from './weather.js';

/** The fields a place may be given by, under the domain's names for them. */
export const PLACE_FIELDS = {
  lat: 'lat',
  lon: 'lon',
  city: 'city',
  legacyCoords: 'legacyCoords',
  legacyCity: 'legacyCity',
} as const;
export type PlaceField = keyof typeof PLACE_FIELDS;

/**
 * Where the weather is asked for, one way of four: `lat` and `lon`; `city` (a place name, with an
 * optional `, country`) found in the gazetteer; or as the original service took it,
 * `legacyCoords` (a point) and `legacyCity`. `fieldNames` says what the caller calls each field
 * (a transport may give one under another name), for the errors that name it.
 */
export interface PlaceAsked {
  readonly lat?: number;
  readonly lon?: number;
  readonly city?: string;
  readonly legacyCoords?: Point;
  readonly legacyCity?: string;
  readonly fieldNames?: Partial<Readonly<Record<PlaceField, string>>>;
}

export interface AirRequest extends PlaceAsked {
  /** An IANA time zone name, or `auto` (the default): the place's own. */
  readonly timezone?: string;
}

export interface WeatherRequest extends AirRequest {
  /** Default metric. */
  readonly units?: Units;
}

export interface ForecastRequest extends WeatherRequest {
  /** 1 to 16, default 7. */
  readonly days?: number;
}

const TIMEZONE_RULE = `timezone must be ${AUTO_TIME_ZONE} or an IANA time zone name such as Europe/Paris`;

const STEPS_PER_DEGREE = Math.round(1 / POINT_PRECISION_DEGREES);
/** To the nearest 0.01°; `+ 0` makes -0 plain 0, so that both sides of zero share one question. */
const rounded = (degrees: number): number => Math.round(degrees * STEPS_PER_DEGREE) / STEPS_PER_DEGREE + 0;

type Located = { readonly point: Point; readonly name: string | null; readonly country: string | null };
type Where =
  | { readonly kind: 'point'; readonly point: Point }
  | { readonly kind: 'name'; readonly text: string; readonly field: string };

/** Which of the four ways the place was given, refusing none or more than one. */
function whereOf({
  lat,
  lon,
  city,
  legacyCoords,
  legacyCity,
  fieldNames = {},
}: PlaceAsked): E.Either<DomainError, Where> {
  const named = { ...PLACE_FIELDS, ...fieldNames };
  if ((lat === undefined) !== (lon === undefined))
    return E.left(missingInput(lat === undefined ? named.lat : named.lon));
  const ways = [
    ...(lat !== undefined ? [[named.lat, named.lon]] : []),
    ...(city !== undefined ? [[named.city]] : []),
    ...(legacyCoords !== undefined ? [[named.legacyCoords]] : []),
    ...(legacyCity !== undefined ? [[named.legacyCity]] : []),
  ];
  if (ways.length === 0)
    return E.left(missingInput(named.lat, named.lon, named.city, named.legacyCoords, named.legacyCity));
  if (ways.length > 1)
    return E.left(
      invalidInput(
        ways.flat(),
        `give the place one way: ${named.lat} and ${named.lon}, ${named.city}, ${named.legacyCoords} or ${named.legacyCity}`,
      ),
    );
  if (lat !== undefined && lon !== undefined)
    return E.map((point: Point) => ({ kind: 'point' as const, point }))(checkCoordinates(lat, lon));
  if (legacyCoords !== undefined) {
    return E.isRight(checkCoordinates(legacyCoords.lat, legacyCoords.lon))
      ? E.right({ kind: 'point', point: legacyCoords })
      : E.left(
          invalidInput(
            [named.legacyCoords],
            `${named.legacyCoords} must be "lat,lon", lat from -90 to 90 and lon from -180 to 180`,
          ),
        );
  }
  return E.right(
    city !== undefined
      ? { kind: 'name', text: city, field: named.city }
      : { kind: 'name', text: legacyCity!, field: named.legacyCity },
  );
}

function checkAirOptions({ timezone = AUTO_TIME_ZONE }: AirRequest): E.Either<DomainError, Omit<AirQuery, 'point'>> {
  if (timezone !== AUTO_TIME_ZONE && !isTimeZoneName(timezone)) return E.left(invalidInput('timezone', TIMEZONE_RULE));
  return E.right({ timezone });
}

function checkOptions(request: WeatherRequest): E.Either<DomainError, Omit<WeatherQuery, 'point'>> {
  const { units = DEFAULT_UNITS } = request;
  if (!(UNITS as readonly string[]).includes(units))
    return E.left(invalidInput('units', `units must be ${UNITS.join(' or ')}`));
  return E.map((options: Omit<AirQuery, 'point'>) => ({ ...options, units }))(checkAirOptions(request));
}

function checkForecastOptions(request: ForecastRequest): E.Either<DomainError, Omit<ForecastQuery, 'point'>> {
  const { days = DEFAULT_FORECAST_DAYS } = request;
  if (!Number.isInteger(days) || days < 1 || days > MAX_FORECAST_DAYS)
    return E.left(invalidInput('days', `days must be an integer from 1 to ${MAX_FORECAST_DAYS}`));
  return E.map((options: Omit<WeatherQuery, 'point'>) => ({ ...options, days }))(checkOptions(request));
}

/** The point to ask about, and the place's name and country when it was asked by name. */
async function locate(gazetteer: Gazetteer, where: Where): Promise<E.Either<DomainError, Located>> {
  if (where.kind === 'point') return E.right({ point: where.point, name: null, country: null });
  const found = await findPlacesNamed(gazetteer, where.text, 1, where.field);
  if (E.isLeft(found)) return found;
  const place = found.right[0]!;
  return E.right({ point: { lat: place.lat, lon: place.lon }, name: place.name, country: place.country });
}

/**
 * The question for the source, from a request: the place given one way, the options checked, and
 * the point rounded to 0.01°, so that answers are kept per rounded point (with the options).
 */
async function questionOf<R extends PlaceAsked, O>(
  gazetteer: Gazetteer,
  request: R,
  checkOptions: (request: R) => E.Either<DomainError, O>,
): Promise<E.Either<DomainError, { query: O & { point: Point }; place: Located }>> {
  const where = whereOf(request);
  if (E.isLeft(where)) return where;
  const options = checkOptions(request);
  if (E.isLeft(options)) return options;
  const located = await locate(gazetteer, where.right);
  if (E.isLeft(located)) return located;
  const point = { lat: rounded(located.right.point.lat), lon: rounded(located.right.point.lon) };
  return E.right({ query: { ...options.right, point }, place: { ...located.right, point } });
}

const locationOf = ({ point, name, country }: Located, { timezone, elevation }: Situation): WeatherLocation => ({
  name,
  country,
  ...point,
  timezone,
  elevation,
});

/** A source's outcome as the use case answers it: found (fresh or stale), or the catalogue's error. */
function answerOf<A, B>(
  source: WeatherSource,
  result: WeatherResult<A>,
  build: (value: A) => B,
  turnedOff = 'Weather is turned off on this server',
): E.Either<DomainError, Fetched<B>> {
  switch (result.kind) {
    case 'found':
      return E.right({ value: build(result.value), stale: result.stale });
    case 'rejected':
      // The source refused what we checked and passed on: its reason is the only one there is.
      return E.left(invalidInput([], `${source.name} refused the question: ${result.reason}`));
    case 'unavailable':
      return E.left(upstreamFailure(source.name, result.reason));
    case 'off':
      return E.left({ _tag: 'EndpointDisabled', details: turnedOff });
  }
}

/** `Weather::Current`: the conditions now at a point or a named place. */
export class GetCurrentWeather {
  constructor(
    private readonly source: WeatherSource,
    private readonly gazetteer: Gazetteer,
  ) {}

  async execute(
    request: WeatherRequest,
    context: CallContext = {},
  ): Promise<E.Either<DomainError, Fetched<CurrentWeather>>> {
    const question = await questionOf(this.gazetteer, request, checkOptions);
    if (E.isLeft(question)) return question;
    const { query, place } = question.right;
    return answerOf(this.source, await this.source.current(query, context), (observed) => ({
      location: locationOf(place, observed),
      ...observed.conditions,
      description: describeWeatherCode(observed.conditions.weatherCode),
      units: observed.units,
      attribution: this.source.attribution,
    }));
  }
}

/** `Weather::Forecast`: a forecast by day, today first, at a point or a named place. */
export class GetForecast {
  /** The days of each forecast the source keeps, described once: a kept forecast is answered many times. */
  private readonly describedDays = new WeakMap<readonly DayForecast[], readonly DescribedDay[]>();

  constructor(
    private readonly source: WeatherSource,
    private readonly gazetteer: Gazetteer,
  ) {}

  private describe(days: readonly DayForecast[]): readonly DescribedDay[] {
    let described = this.describedDays.get(days);
    if (described === undefined) {
      described = days.map((day) => ({ ...day, description: describeWeatherCode(day.weatherCode) }));
      this.describedDays.set(days, described);
    }
    return described;
  }

  async execute(
    request: ForecastRequest,
    context: CallContext = {},
  ): Promise<E.Either<DomainError, Fetched<Forecast>>> {
    const question = await questionOf(this.gazetteer, request, checkForecastOptions);
    if (E.isLeft(question)) return question;
    const { query, place } = question.right;
    return answerOf(this.source, await this.source.forecast(query, context), (observed) => ({
      location: locationOf(place, observed),
      days: this.describe(observed.days),
      units: observed.units,
      attribution: this.source.attribution,
    }));
  }
}

/** `Weather::Hourly`: the next 48 hours, hour by hour, the current one first, at a point or a named place. */
export class GetHourlyForecast {
  /** The hours of each forecast the source keeps, described once, as {@link GetForecast} does its days. */
  private readonly describedHours = new WeakMap<readonly HourForecast[], readonly DescribedHour[]>();

  constructor(
    private readonly source: WeatherSource,
    private readonly gazetteer: Gazetteer,
  ) {}

  private describe(hours: readonly HourForecast[]): readonly DescribedHour[] {
    let described = this.describedHours.get(hours);
    if (described === undefined) {
      described = hours.map((hour) => ({ ...hour, description: describeWeatherCode(hour.weatherCode) }));
      this.describedHours.set(hours, described);
    }
    return described;
  }

  async execute(
    request: WeatherRequest,
    context: CallContext = {},
  ): Promise<E.Either<DomainError, Fetched<HourlyForecast>>> {
    const question = await questionOf(this.gazetteer, request, checkOptions);
    if (E.isLeft(question)) return question;
    const { query, place } = question.right;
    return answerOf(this.source, await this.source.hourly(query, context), (observed) => ({
      location: locationOf(place, observed),
      hours: this.describe(observed.hours),
      units: observed.units,
      attribution: this.source.attribution,
    }));
  }
}

/**
 * `Weather::Air`: the air now at a point or a named place. It takes no system of units: its
 * measures are µg/m³ and index points in both.
 */
export class GetAirQuality {
  constructor(
    private readonly source: WeatherSource,
    private readonly gazetteer: Gazetteer,
  ) {}

  async execute(request: AirRequest, context: CallContext = {}): Promise<E.Either<DomainError, Fetched<CurrentAir>>> {
    // A caller without the types may still pass units; taking them would be ignoring them.
    if ((request as WeatherRequest).units !== undefined)
      return E.left(invalidInput('units', 'the air takes no units: its measures are the same in every system'));
    const question = await questionOf(this.gazetteer, request, checkAirOptions);
    if (E.isLeft(question)) return question;
    const { query, place } = question.right;
    return answerOf(
      this.source,
      await this.source.air(query, context),
      (observed) => ({
        location: locationOf(place, observed),
        ...observed.air,
        units: observed.units,
        attribution: this.source.airAttribution,
      }),
      'Air quality is turned off on this server',
    );
  }
}
