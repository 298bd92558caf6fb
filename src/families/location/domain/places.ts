import { foldUndecomposedLetters } from '../../../domain/text.js';

/** A populated place of the gazetteer, as the API shows it. */
export interface Place {
  readonly name: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** The country's English name ("France", "United States"). */
  readonly countryName: string;
  /** The first-level region (state, region, province), null when the data does not say. */
  readonly admin1: string | null;
  /** The second-level region (county, département, district), null when the data does not say. */
  readonly admin2: string | null;
  readonly lat: number;
  readonly lon: number;
  readonly population: number;
  /** The IANA time zone ("Europe/Paris"), null when the data does not say. */
  readonly timeZone: string | null;
  /** Only when a language was asked: the place's name in it, null when the data has none. */
  readonly localizedName?: string | null;
}

/**
 * What the operator's geocoder found where the gazetteer knows nothing (a postal code, a street
 * address): a point with its address, which has no population; its time zone is the nearest
 * gazetteer place's, when that place is near.
 */
export interface AddressPlace extends Omit<Place, 'population'> {
  readonly population: null;
  readonly address: PostalAddress;
}

/** An address as a geocoder gives it; each part null when it does not say. */
export interface PostalAddress {
  /** The whole address on one line, as a person would write it. */
  readonly label: string;
  readonly houseNumber: string | null;
  readonly street: string | null;
  readonly postcode: string | null;
  /** The city, town or village. */
  readonly locality: string | null;
}

/** A place of the gazetteer, or an address the geocoder found. */
export type FoundPlace = Place | AddressPlace;

/** What a geocoder answers for one address: the point, its regions as it names them, and the address. */
export interface GeocodedAddress {
  readonly name: string;
  /** ISO 3166-1 alpha-2, upper case; null when the geocoder does not say. */
  readonly country: string | null;
  readonly admin1: string | null;
  readonly admin2: string | null;
  readonly lat: number;
  readonly lon: number;
  readonly address: PostalAddress;
}

export interface NearbyPlace extends Place {
  /** Great-circle distance from the asked point. */
  readonly distanceKm: number;
}

/** A name search: `key` is already normalised with {@link placeNameKey}. */
export interface PlaceSearch {
  readonly key: string;
  /** Only places of this country (ISO alpha-2, upper case). */
  readonly country?: string;
  /** Only places in what the text after a comma names: a country or a first-level region. */
  readonly within?: PlaceQualifier;
  readonly limit: number;
  /** ISO 639-1: each place then carries `localizedName`. */
  readonly lang?: string;
}

/**
 * The text after a comma ("Texas", "TX", "D.C.", "France"), as the gazetteer matches it: the
 * countries it names (resolved by the domain), and its keys, which may name first-level regions
 * by name or code (only the gazetteer knows those). A place qualifies when it is in one of the
 * countries or in a region one of the keys names.
 */
export interface PlaceQualifier {
  /** The qualifier's key and, when that has spaces, the same without them ("d c" → "dc"). */
  readonly keys: readonly string[];
  /** ISO alpha-2 codes, upper case; empty when the text names no country. */
  readonly countries: readonly string[];
}

/** Shortest key for which places whose name starts with it are offered after exact matches. */
export const MIN_PREFIX_KEY_LENGTH = 3;

/**
 * The form names are compared in: accents and case dropped, special letters folded, and hyphens,
 * apostrophes, dots and runs of spaces made one space, so "Saint-Étienne", "saint etienne" and
 * "SAINT  ÉTIENNE" meet.
 */
export function placeNameKey(name: string): string {
  // Most names are plain ASCII; they skip the Unicode work (a gazetteer keys 135k names at once).
  const folded = /[^ -~]/.test(name)
    ? foldUndecomposedLetters(
        name
          .normalize('NFD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase(),
      )
    : name.toLowerCase();
  return SEPARATED.test(folded) ? folded.replace(SEPARATORS, ' ').trim() : folded;
}

/**
 * Spaces, hyphens and dashes (‐ ‑ – —), apostrophes (' ’ ‘ ` ´) and periods. Characters beyond ASCII
 * are written as escapes: the program's bundle must stay ASCII (see scripts/program-bundle.js).
 */
const SEPARATORS = /[\s\-\u2010\u2011\u2013\u2014'\u2019\u2018`\u00b4.]+/g;
/** Anything to tidy: a separator other than a single inner space. */
const SEPARATED =
  /[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\-\u2010\u2011\u2013\u2014'\u2019\u2018`\u00b4.]|\s\s|^\s|\s$/;
