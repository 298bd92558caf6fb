import { identifier } from '../../../domain/identifier.js';
import type { CallContext } from '../../../domain/call-context.js';
import type {
  AirQuery,
  ForecastQuery,
  ObservedAir,
  ObservedConditions,
  ObservedForecast,
  ObservedHours,
  WeatherQuery,
} from './weather.js';

/**
 * What asking a weather source gives: the answer (an older one when the source could not be asked,
 * then `stale`), its refusal of the question with its reason, nothing usable (in time), or nothing
 * because it is turned off here.
 */
export type WeatherResult<A> =
  | { readonly kind: 'found'; readonly value: A; readonly stale: boolean }
  | { readonly kind: 'rejected'; readonly reason: string }
  | { readonly kind: 'unavailable'; readonly reason: 'timeout' | 'failure' }
  | { readonly kind: 'off' };

/**
 * Weather by point (Open-Meteo). A found forecast holds exactly the days asked, today first, an
 * hourly one `FORECAST_HOURS` hours, the current one first, and their measurements are in
 * the units asked. Every method answers an outcome and never rejects.
 */
export interface WeatherSource {
  /** Who it is, for error details: `Open-Meteo`. */
  readonly name: string;
  /** The credit its data's licence requires, shown with every answer. */
  readonly attribution: string;
  /** The credit the air's data requires: its source's, and that of the data it is made from. */
  readonly airAttribution: string;
  current(query: WeatherQuery, context?: CallContext): Promise<WeatherResult<ObservedConditions>>;
  forecast(query: ForecastQuery, context?: CallContext): Promise<WeatherResult<ObservedForecast>>;
  hourly(query: WeatherQuery, context?: CallContext): Promise<WeatherResult<ObservedHours>>;
  /** The air now; `off` on its own when only the air's source is turned off. */
  air(query: AirQuery, context?: CallContext): Promise<WeatherResult<ObservedAir>>;
}
export const WeatherSource = identifier<WeatherSource>('WeatherSource');
