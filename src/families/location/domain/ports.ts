import type { CallContext } from '../../../domain/call-context.js';
import { identifier } from '../../../domain/identifier.js';
import type { GeocodedAddress, NearbyPlace, Place, PlaceSearch } from './places.js';
import type { CodeArea, PlusCodeLength } from './plus-codes.js';

/**
 * The gazetteer as the domain needs it. `search` answers places whose name key, or one of whose
 * other names' keys, equals the asked key, best first as the domain ranks them (`rankNamed` in
 * place-ranking.ts: seats of government first, then population; an adapter that knows no seats
 * calls every place an other one), then (for keys of at least `MIN_PREFIX_KEY_LENGTH`
 * characters, see places.ts) places whose name key starts with it, most populous first, at most
 * `limit` in all. `nearest` answers the `limit` places closest to a point, closest first.
 */
export interface Gazetteer {
  search(query: PlaceSearch): Promise<readonly Place[]>;
  /**
   * For type-ahead: places whose own name key starts with the asked key (or is it), best first by
   * `typeAheadScore` (place-ranking.ts: population weighted by seat), at most `limit`.
   */
  startingWith(query: PlaceSearch): Promise<readonly Place[]>;
  /** Whether one of these keys names a first-level region (state, province) by its name or its GeoNames code ("texas", "tx"). */
  isRegion(keys: readonly string[]): Promise<boolean>;
  /** With `lang` (ISO 639-1), each place carries `localizedName`. */
  nearest(lat: number, lon: number, limit: number, lang?: string): Promise<readonly NearbyPlace[]>;
}
export const Gazetteer = identifier<Gazetteer>('Gazetteer');

/**
 * Open Location Codes ("plus codes"). The arithmetic is pure, but it lives behind a port so the
 * domain stays free of libraries; `encode` is only asked for a valid latitude and longitude and
 * `decode`/`recover` only for codes `kindOf` called full/short.
 */
export interface PlusCodes {
  kindOf(code: string): 'full' | 'short' | 'invalid';
  encode(lat: number, lon: number, length: PlusCodeLength): string;
  decode(fullCode: string): CodeArea;
  /** The full code nearest the reference point whose tail is the short code. */
  recover(shortCode: string, referenceLat: number, referenceLon: number): string;
}
export const PlusCodes = identifier<PlusCodes>('PlusCodes');

/**
 * What a geocoder answers: the addresses it found for a text, best first (none when it knows
 * nothing of it; `stale` when its answer was kept from before because it cannot be asked now), or
 * why it could not be asked.
 */
export type GeocoderResult =
  | { readonly kind: 'found'; readonly addresses: readonly GeocodedAddress[]; readonly stale: boolean }
  | { readonly kind: 'unavailable'; readonly reason: 'failure' | 'timeout' };

/**
 * An operator's geocoder (Photon, Nominatim), asked only for what the gazetteer cannot answer:
 * postal codes and street addresses. Its names are asked in English, as the gazetteer's are.
 */
export interface Geocoder {
  /** Names it in errors ("Photon"). */
  readonly name: string;
  /** The credit its data's licence asks of every answer that uses it. */
  readonly attribution: string;
  geocode(text: string, limit: number, context?: CallContext): Promise<GeocoderResult>;
}
export const Geocoder = identifier<Geocoder>('Geocoder');
