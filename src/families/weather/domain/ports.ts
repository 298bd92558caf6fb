import { identifier } from '../../../domain/identifier.js';
import type { CallContext } from '../../../domain/call-context.js';
import type { ForecastQuery, ObservedConditions, ObservedForecast, WeatherQuery } from './weather.js';

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
 * Weather by point (Open-Meteo). A found forecast holds exactly the days asked, today first, and
 * its measurements in the units asked. Every method answers an outcome and never rejects.
 */
export interface WeatherSource {
  /** Who it is, for error details: `Open-Meteo`. */
  readonly name: string;
  /** The credit its data's licence requires, shown with every answer. */
  readonly attribution: string;
  current(query: WeatherQuery, context?: CallContext): Promise<WeatherResult<ObservedConditions>>;
  forecast(query: ForecastQuery, context?: CallContext): Promise<WeatherResult<ObservedForecast>>;
}
export const WeatherSource = identifier<WeatherSource>('WeatherSource');
