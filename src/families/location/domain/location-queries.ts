import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, missingInput, type DomainError } from '../../../domain/errors.js';
import { CONTROL_OR_INVISIBLE_RULE, hasControlOrInvisibleCharacter } from '../../../domain/text.js';
import type { CallContext } from '../../../domain/call-context.js';
import { lookUpAddress, type Geocoding } from './address-lookup.js';
import { countryCodeOf } from './countries.js';
import { placeNameKey, type FoundPlace, type NearbyPlace, type Place, type PlaceQualifier } from './places.js';
import { DEFAULT_PLUS_CODE_LENGTH, type CodeArea, type PlusCodeLength } from './plus-codes.js';
import type { Gazetteer, PlusCodes } from './ports.js';

export const DEFAULT_PLACES_LIMIT = 10;
export const DEFAULT_NEARBY_LIMIT = 5;
export const MAX_LIMIT = 50;

export const noPlaceNamed = (asked: string): DomainError => ({
  _tag: 'InformationNotFound',
  details: `No place named "${asked}" is known`,
});

const OFFLINE_LIMIT =
  'the offline gazetteer knows populated places (cities, towns, villages), not postal codes or street addresses: ask for the town, e.g. "London, GB"';

/** Words that name a way, in the languages whose addresses people type most. */
const STREET_WORDS =
  /(^| )(street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|place|pl|court|ct|square|sq|highway|hwy|terrace|parkway|pkwy|rue|chemin|allee|strasse|str|platz|weg|gasse|calle|avenida|rua|via|viale|piazza|corso|straat|laan|ulitsa|ul)( |$)/;
/** A postal code as people write them: digits (`10001`, `75008`, `10115-1234`), or letters and digits as in the UK, Canada, the Netherlands (`SW1A 1AA`, `K1A 0B1`, `1012 AB`). */
const POSTAL_CODE =
  /^(?:\d{3,}(?:[ -]\d{2,})?|[a-z]{1,2}\d[a-z\d]? ?\d[a-z]{2}|[a-z]\d[a-z] ?\d[a-z]\d|\d{4} ?[a-z]{2})$/;
/** A house number before or after words (`1600 Pennsylvania Avenue`, `Baker Street 221b`). */
const HOUSE_NUMBER = /^\d+[a-z]? \p{L}|\p{L} \d+[a-z]?$/u;

/**
 * Why nothing was found, when the text is not a place's name at all: a postal code or a street
 * address, which the gazetteer cannot know. Undefined for anything else.
 */
function notAPlaceName(text: string): DomainError | undefined {
  const key = placeNameKey(text).replaceAll(',', ' ').replace(/ +/g, ' ').trim();
  const kind = POSTAL_CODE.test(key)
    ? 'a postal code'
    : /\d/.test(key) && STREET_WORDS.test(key)
      ? 'a street address'
      : /^\d{4,5} \p{L}/u.test(key)
        ? 'a postal code and its town'
        : HOUSE_NUMBER.test(key)
          ? 'a street address'
          : undefined;
  return kind === undefined
    ? undefined
    : { _tag: 'InformationNotFound', details: `"${text}" looks like ${kind}: ${OFFLINE_LIMIT}` };
}

const QUALIFIER_HINT =
  'after the comma give a country (an ISO 3166 alpha-2 code or an English name: "Paris, FR", "Paris, France") ' +
  'or a first-level region by name or code ("Paris, Texas", "Paris, TX", "Munich, Bavaria")';

const unknownQualifier = (name: string, qualifier: string): DomainError => ({
  _tag: 'InformationNotFound',
  details: `No place named "${name}" is known in "${qualifier}": "${qualifier}" is neither a country nor a region the gazetteer knows; ${QUALIFIER_HINT}`,
});

/** "name, qualifier": the qualifier is what follows the last comma, empty when there is none. */
function nameAndQualifier(text: string): { name: string; qualifierText: string } {
  const comma = text.lastIndexOf(',');
  return comma === -1
    ? { name: text.trim(), qualifierText: '' }
    : { name: text.slice(0, comma).trim(), qualifierText: text.slice(comma + 1).trim() };
}

/** The qualifier's keys (with and without its spaces, so "D.C." and "DC" meet) and the countries it names. */
function qualifierOf(text: string): PlaceQualifier {
  const key = placeNameKey(text);
  const keys = [...new Set([key, key.replaceAll(' ', '')])].filter((each) => each !== '');
  const countries = [...new Set(keys.map(countryCodeOf).filter((code): code is string => code !== undefined))];
  return { keys, countries };
}

/**
 * The places a text names, best first: "name", or "name, qualifier" where the qualifier (after
 * the last comma) is a country or a first-level region, by name or code. Without a comma, a text
 * no place is called is tried once more with its last word, then its last two, as the qualifier
 * ("Washington DC", "Paris Texas", "Portland Maine"). A qualifier that names nothing is read as
 * part of the name, as some places are named ("Santa Rita, Copan"); when no place is, 404 with a
 * hint, like a name that names nothing. `parameter` names the field, for errors.
 */
export async function findPlacesNamed(
  gazetteer: Gazetteer,
  text: string,
  limit: number,
  parameter: string,
  lang?: string,
): Promise<E.Either<DomainError, readonly Place[]>> {
  const inLanguage = lang === undefined ? {} : { lang };
  if (hasControlOrInvisibleCharacter(text))
    return E.left(invalidInput([parameter], `${parameter} must not contain ${CONTROL_OR_INVISIBLE_RULE}`));
  const { name, qualifierText } = nameAndQualifier(text);
  const key = placeNameKey(name);
  if (key === '')
    return E.left(invalidInput([parameter], `${parameter} must name a place, e.g. "Paris" or "Paris, FR"`));
  if (qualifierText === '') {
    const places = await gazetteer.search({ key, limit, ...inLanguage });
    if (places.length > 0) return E.right(places);
    const words = key.split(' ');
    for (const qualifierWords of [1, 2]) {
      if (words.length <= qualifierWords) break;
      const within = qualifierOf(words.slice(-qualifierWords).join(' '));
      if (within.countries.length === 0 && !(await gazetteer.isRegion(within.keys))) continue;
      const qualified = await gazetteer.search({
        key: words.slice(0, -qualifierWords).join(' '),
        within,
        limit,
        ...inLanguage,
      });
      if (qualified.length > 0) return E.right(qualified);
    }
    return E.left(notAPlaceName(text) ?? noPlaceNamed(name));
  }
  const within = qualifierOf(qualifierText);
  const places = await gazetteer.search({ key, within, limit, ...inLanguage });
  if (places.length > 0) return E.right(places);
  const notAName = notAPlaceName(text);
  if (notAName) return E.left(notAName);
  if (within.countries.length === 0 && !(await gazetteer.isRegion(within.keys))) {
    // Some places are called so, comma and all ("Santa Rita, Copan", "Xeraco,Jaraco": 26 in the gazetteer).
    const wholeName = await gazetteer.search({ key: placeNameKey(text), limit, ...inLanguage });
    return wholeName.length > 0 ? E.right(wholeName) : E.left(unknownQualifier(name, qualifierText));
  }
  return E.left(noPlaceNamed(`${name}, ${qualifierText}`));
}

/**
 * Type-ahead: the places whose name starts with the text typed so far, best first by population
 * weighted by seat (`Spring` → Springfield, Illinois). A qualifier after a comma keeps to a
 * country or region as for whole names; the text is not reread with its last words as one.
 */
async function findPlacesStartingWith(
  gazetteer: Gazetteer,
  text: string,
  limit: number,
  lang: string | undefined,
): Promise<E.Either<DomainError, readonly Place[]>> {
  if (hasControlOrInvisibleCharacter(text))
    return E.left(invalidInput(['address'], `address must not contain ${CONTROL_OR_INVISIBLE_RULE}`));
  const { name, qualifierText } = nameAndQualifier(text);
  const key = placeNameKey(name);
  if (key === '') return E.left(invalidInput(['address'], 'address must start a place name with a letter or digit'));
  const within = qualifierText === '' ? undefined : qualifierOf(qualifierText);
  const places = await gazetteer.startingWith({
    key,
    ...(within && { within }),
    limit,
    ...(lang === undefined ? {} : { lang }),
  });
  if (places.length > 0) return E.right(places);
  if (within && within.countries.length === 0 && !(await gazetteer.isRegion(within.keys)))
    return E.left(unknownQualifier(name, qualifierText));
  return E.left({ _tag: 'InformationNotFound', details: `No place's name starts with "${name}"` });
}

export function checkCoordinates(lat: number, lon: number): E.Either<DomainError, { lat: number; lon: number }> {
  const bad = [
    ...(Number.isFinite(lat) && Math.abs(lat) <= 90 ? [] : ['lat']),
    ...(Number.isFinite(lon) && Math.abs(lon) <= 180 ? [] : ['lon']),
  ];
  return bad.length === 0
    ? E.right({ lat, lon })
    : E.left(invalidInput(bad, 'lat must be from -90 to 90 and lon from -180 to 180'));
}

const checkLimit = (limit: number): E.Either<DomainError, number> =>
  Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT
    ? E.right(limit)
    : E.left(invalidInput(['limit'], `limit must be an integer from 1 to ${MAX_LIMIT}`));

/** `name`: the places a whole name may mean; `prefix`: type-ahead, places whose name starts with the text. */
export const SEARCH_MODES = ['name', 'prefix'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface PlaceSearchOptions {
  readonly mode?: SearchMode;
  /** ISO 639-1: each place then carries its name in that language where the data has one. */
  readonly lang?: string;
  /** The request a call to the geocoder serves. */
  readonly context?: CallContext;
}

let languageNames: Intl.DisplayNames | undefined;

/** An ISO 639-1 code Node's ICU data names ("de", "ja"); "xx" or "DE" is refused, never ignored. */
export function checkLanguage(lang: string | undefined): E.Either<DomainError, string | undefined> {
  if (lang === undefined) return E.right(undefined);
  languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  return /^[a-z]{2}$/.test(lang) && languageNames.of(lang) !== undefined
    ? E.right(lang)
    : E.left(invalidInput(['lang'], 'lang must be an ISO 639-1 language code in lower case, such as de, ja or zh'));
}

/**
 * `Location::Coords`: the places a name may mean, best first. With the operator's geocoder, a
 * whole text the gazetteer knows nothing of (a postal code, a street address) is asked of it
 * (address-lookup.ts); type-ahead never waits for it.
 */
export class FindPlaces {
  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly geocoding?: Geocoding,
  ) {}

  /** The credit the geocoder's data asks of an answer holding its addresses; undefined without one. */
  get geocoderAttribution(): string | undefined {
    return this.geocoding?.geocoder.attribution;
  }

  async execute(
    address: string,
    limit = DEFAULT_PLACES_LIMIT,
    { mode = 'name', lang, context = {} }: PlaceSearchOptions = {},
  ): Promise<E.Either<DomainError, readonly FoundPlace[]>> {
    const checkedLimit = checkLimit(limit);
    if (E.isLeft(checkedLimit)) return checkedLimit;
    const checkedLang = checkLanguage(lang);
    if (E.isLeft(checkedLang)) return checkedLang;
    if (mode === 'prefix') return findPlacesStartingWith(this.gazetteer, address, limit, checkedLang.right);
    const found = await findPlacesNamed(this.gazetteer, address, limit, 'address', checkedLang.right);
    if (E.isRight(found) || found.left._tag !== 'InformationNotFound' || this.geocoding === undefined) return found;
    return lookUpAddress(this.geocoding, this.gazetteer, address, limit, found.left, checkedLang.right, context);
  }
}

export interface NearbyPlaces {
  readonly lat: number;
  readonly lon: number;
  /** How far a place may be for the point to count as near one (the `location.nearbyKm` setting). */
  readonly nearbyKm: number;
  /** No place lies within `nearbyKm` of the point (at sea, in a desert, at a pole): the places are only the least far. */
  readonly farFromPlaces: boolean;
  readonly places: readonly NearbyPlace[];
}

export const DEFAULT_NEARBY_KM = 50;

/** `Location::Address`: the places nearest a point, closest first, and whether the nearest is near at all. */
export class FindNearbyPlaces {
  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly nearbyKm = DEFAULT_NEARBY_KM,
  ) {}

  async execute(
    lat: number,
    lon: number,
    limit = DEFAULT_NEARBY_LIMIT,
    lang?: string,
  ): Promise<E.Either<DomainError, NearbyPlaces>> {
    const checked = checkCoordinates(lat, lon);
    if (E.isLeft(checked)) return checked;
    const checkedLimit = checkLimit(limit);
    if (E.isLeft(checkedLimit)) return checkedLimit;
    const checkedLang = checkLanguage(lang);
    if (E.isLeft(checkedLang)) return checkedLang;
    const places = await this.gazetteer.nearest(lat, lon, limit, checkedLang.right);
    if (places.length === 0) return E.left({ _tag: 'InformationNotFound', details: 'The gazetteer holds no places' });
    return E.right({
      lat,
      lon,
      nearbyKm: this.nearbyKm,
      farFromPlaces: places[0]!.distanceKm > this.nearbyKm,
      places: places.map((place) => ({ ...place, distanceKm: Math.round(place.distanceKm * 1000) / 1000 })),
    });
  }
}

export interface PlusCodeRequest {
  readonly code?: string;
  readonly lat?: number;
  readonly lon?: number;
  /** A place whose best match is the reference for a short code; it may also follow the code after a space. */
  readonly near?: string;
  /** Only when encoding. */
  readonly length?: PlusCodeLength;
}

export interface EncodedPlusCode {
  readonly code: string;
  readonly lat: number;
  readonly lon: number;
  readonly length: number;
}

export interface DecodedPlusCode {
  readonly code: string;
  /** The centre of the cell. */
  readonly lat: number;
  readonly lon: number;
  readonly length: number;
  readonly bounds: { readonly south: number; readonly west: number; readonly north: number; readonly east: number };
  /** Present when a short code was recovered: what was given and the point it was recovered near. */
  readonly shortCode?: string;
  readonly reference?: { readonly lat: number; readonly lon: number; readonly place?: Place };
}

/**
 * A code as Google writes it with its locality ("V75V+8Q Paris", "V75V+8Q Paris, France"): the
 * code, and the place after the first space, which is read as `near` is.
 */
function codeAndLocality(text: string): { code: string; locality?: string } {
  const space = text.search(/\s/);
  if (space === -1) return { code: text };
  const locality = text.slice(space).trim();
  return locality === '' ? { code: text.slice(0, space) } : { code: text.slice(0, space), locality };
}

/** Floating-point noise off: a nanodegree is 40 times finer than the smallest cell (4e-8° tall). */
const tidy = (degrees: number): number => Math.round(degrees * 1e9) / 1e9;

/**
 * `Location::PlusCode`. With lat and lon and no code: encode. With a full code: decode (any
 * reference is not needed and ignored). With a short code: recover it near lat/lon or near the
 * best match of `near` — one of the two, not both — then decode.
 */
export class LookUpPlusCode {
  constructor(
    private readonly plusCodes: PlusCodes,
    private readonly gazetteer: Gazetteer,
  ) {}

  async execute(request: PlusCodeRequest): Promise<E.Either<DomainError, EncodedPlusCode | DecodedPlusCode>> {
    const written = request.code === undefined ? undefined : codeAndLocality(request.code);
    if (written?.locality !== undefined && request.near !== undefined)
      return E.left(
        invalidInput(['code', 'near'], 'give the place after the code ("V75V+8Q Paris") or as near, not both'),
      );
    const { lat, lon, length } = request;
    const code = written?.code;
    const near = written?.locality ?? request.near;
    if ((lat === undefined) !== (lon === undefined)) return E.left(missingInput(lat === undefined ? 'lat' : 'lon'));
    const point = lat !== undefined && lon !== undefined ? checkCoordinates(lat, lon) : undefined;
    if (point && E.isLeft(point)) return point;
    if (code === undefined) {
      if (near !== undefined)
        return E.left(invalidInput(['near'], 'near is the reference for a short code: give code as well'));
      if (point === undefined) return E.left(missingInput('lat', 'lon'));
      const codeLength = length ?? DEFAULT_PLUS_CODE_LENGTH;
      return E.right({
        code: this.plusCodes.encode(point.right.lat, point.right.lon, codeLength),
        lat: point.right.lat,
        lon: point.right.lon,
        length: codeLength,
      });
    }
    if (length !== undefined)
      return E.left(invalidInput(['length'], 'length applies when encoding lat and lon, not with code'));
    const kind = this.plusCodes.kindOf(code);
    if (kind === 'invalid')
      return E.left(
        invalidInput(
          ['code'],
          'code must be a plus code such as 8FW4V75V+8Q, or a short one such as V75V+8Q with a reference',
        ),
      );
    if (kind === 'full') {
      // A full code is its own place: a reference given with it would be dropped.
      const references = [...(point ? ['lat', 'lon'] : []), ...(near === undefined ? [] : ['near'])];
      if (references.length > 0)
        return E.left(
          invalidInput(
            references,
            `a full plus code needs no reference: leave ${references.join(', ')} out, or give a short code`,
          ),
        );
      return E.right(this.decode(code));
    }
    if (point && near !== undefined)
      return E.left(
        invalidInput(['near', 'lat', 'lon'], 'give the reference of a short code as near or as lat and lon, not both'),
      );
    if (point) return E.right(this.recover(code, { lat: point.right.lat, lon: point.right.lon }));
    if (near === undefined)
      return E.left(invalidInput(['code'], 'a short code needs a reference: near=<place> or lat and lon'));
    const found = await findPlacesNamed(this.gazetteer, near, 1, 'near');
    if (E.isLeft(found)) return found;
    const place = found.right[0]!;
    return E.right(this.recover(code, { lat: place.lat, lon: place.lon, place }));
  }

  private recover(shortCode: string, reference: { lat: number; lon: number; place?: Place }): DecodedPlusCode {
    const full = this.plusCodes.recover(shortCode, reference.lat, reference.lon);
    return { ...this.decode(full), shortCode: shortCode.toUpperCase(), reference };
  }

  private decode(code: string): DecodedPlusCode {
    const area: CodeArea = this.plusCodes.decode(code);
    return {
      code: area.code,
      lat: tidy((area.south + area.north) / 2),
      lon: tidy((area.west + area.east) / 2),
      length: area.length,
      bounds: { south: tidy(area.south), west: tidy(area.west), north: tidy(area.north), east: tidy(area.east) },
    };
  }
}
