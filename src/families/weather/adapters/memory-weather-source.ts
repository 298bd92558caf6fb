import type { WeatherResult, WeatherSource } from '../domain/ports.js';
import {
  AUTO_TIME_ZONE,
  type AirConditions,
  type AirQuery,
  type AirUnits,
  type ConditionUnits,
  type Conditions,
  type DayForecast,
  type DayUnits,
  type ForecastQuery,
  type HourForecast,
  type HourUnits,
  type ObservedAir,
  type ObservedConditions,
  type ObservedForecast,
  type ObservedHours,
  type Units,
  type WeatherQuery,
} from '../domain/weather.js';

/** The same weather everywhere, in each system of units: enough for tests of what is done with it. */
export interface WeatherWorld {
  /** What `auto` is answered as. */
  readonly timezone: string;
  readonly elevation: number;
  /** The time zones it answers in; it refuses others, as Open-Meteo refuses a name it does not know. */
  readonly timeZones: readonly string[];
  readonly current: { readonly [U in Units]: { readonly conditions: Conditions; readonly units: ConditionUnits } };
  /** At least as many days as will be asked for. */
  readonly forecast: { readonly [U in Units]: { readonly days: readonly DayForecast[]; readonly units: DayUnits } };
  /** Exactly the hours a source answers. */
  readonly hourly: { readonly [U in Units]: { readonly hours: readonly HourForecast[]; readonly units: HourUnits } };
  readonly air: { readonly air: AirConditions; readonly units: AirUnits };
}

/** A weather source in memory, for tests: it remembers what it was asked, and answers `failure` instead while one is set. */
export class MemoryWeatherSource implements WeatherSource {
  readonly name = 'the memory weather source';
  readonly attribution = 'Weather made up for tests';
  readonly airAttribution = 'Air made up for tests';
  readonly asked: (WeatherQuery | ForecastQuery | AirQuery)[] = [];
  /** Answered to every question while set; `stale` marks found answers as served from cache. */
  failure: Exclude<WeatherResult<never>, { kind: 'found' }> | undefined;
  stale = false;

  constructor(private readonly world: WeatherWorld) {}

  async current(query: WeatherQuery): Promise<WeatherResult<ObservedConditions>> {
    return this.answer(query, () => this.world.current[query.units]);
  }

  async forecast(query: ForecastQuery): Promise<WeatherResult<ObservedForecast>> {
    return this.answer(query, () => {
      const { days, units } = this.world.forecast[query.units];
      return { days: days.slice(0, query.days), units };
    });
  }

  async hourly(query: WeatherQuery): Promise<WeatherResult<ObservedHours>> {
    return this.answer(query, () => this.world.hourly[query.units]);
  }

  async air(query: AirQuery): Promise<WeatherResult<ObservedAir>> {
    return this.answer(query, () => this.world.air);
  }

  private answer<A>(query: AirQuery, make: () => A): WeatherResult<A & { timezone: string; elevation: number }> {
    this.asked.push(query);
    if (this.failure) return this.failure;
    if (query.timezone !== AUTO_TIME_ZONE && !this.world.timeZones.includes(query.timezone))
      return { kind: 'rejected', reason: 'Invalid timezone' };
    const timezone = query.timezone === AUTO_TIME_ZONE ? this.world.timezone : query.timezone;
    return { kind: 'found', value: { ...make(), timezone, elevation: this.world.elevation }, stale: this.stale };
  }
}
