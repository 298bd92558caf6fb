import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { FindNearbyPlaces, FindPlaces, LookUpPlusCode } from './domain/location-queries.js';
import { DEFAULT_NEARBY_LIMIT, DEFAULT_PLACES_LIMIT, MAX_LIMIT, SEARCH_MODES } from './domain/location-queries.js';
import type { FoundPlace } from './domain/places.js';
import { PLUS_CODE_LENGTHS, type PlusCodeLength } from './domain/plus-codes.js';
import { LocationPermission } from './domain/permissions.js';
import {
  described,
  latitude,
  longitude,
  matching,
  numberWritten,
  oneOf,
  placeName,
} from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, json, jsonOf, type Route } from '../../platform/http/route-table.js';

export interface LocationRouteDependencies {
  readonly findPlaces: FindPlaces;
  readonly findNearbyPlaces: FindNearbyPlaces;
  readonly lookUpPlusCode: LookUpPlusCode;
}

const limitUpTo = (max: number) => numberWritten(/^\d{1,3}$/, 1, max, `an integer from 1 to ${max}`, 'integer');

const codeLength = described(
  new t.Type<PlusCodeLength, string, unknown>(
    `one of ${PLUS_CODE_LENGTHS.join(', ')}`,
    (u): u is PlusCodeLength => (PLUS_CODE_LENGTHS as readonly unknown[]).includes(u),
    (u, c) => {
      const length = PLUS_CODE_LENGTHS.find((candidate) => String(candidate) === u);
      return length === undefined ? t.failure(u, c) : t.success(length);
    },
    String,
  ),
  { type: 'integer', enum: PLUS_CODE_LENGTHS },
);

/** The characters of plus codes; which of them form a code is the domain's question. */
const plusCodeText = matching(
  /^[0-9A-Za-z+]{1,20}(?: .{1,200})?$/,
  'a plus code (letters, digits and +, at most 20 characters), optionally followed by a space and a place ("V75V+8Q Paris")',
);

const point = { lat: t.number, lon: t.number };
const orNull = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);
const placeFields = {
  name: t.string,
  country: t.string,
  countryName: t.string,
  admin1: orNull(t.string),
  admin2: orNull(t.string),
  ...point,
  population: t.number,
  timeZone: orNull(t.string),
};
const place = t.strict(placeFields);
/** `localizedName` is there only when `lang` was asked. */
const placeInLanguage = t.exact(t.intersection([t.type(placeFields), t.partial({ localizedName: orNull(t.string) })]));

/** An address the operator's geocoder found: no population, and the address beside the point. */
const addressPlace = t.exact(
  t.intersection([
    t.type({
      ...placeFields,
      population: t.null,
      address: t.strict({
        label: t.string,
        houseNumber: orNull(t.string),
        street: orNull(t.string),
        postcode: orNull(t.string),
        locality: orNull(t.string),
      }),
    }),
    t.partial({ localizedName: orNull(t.string) }),
  ]),
);
/** `attribution` is there only when the geocoder's addresses are. */
const placesNamed = t.exact(
  t.intersection([
    t.type({ address: t.string, places: t.readonlyArray(t.union([placeInLanguage, addressPlace])) }),
    t.partial({ attribution: t.string }),
  ]),
);
const nearbyPlaces = t.strict({
  ...point,
  nearbyKm: t.number,
  farFromPlaces: t.boolean,
  places: t.readonlyArray(
    t.exact(
      t.intersection([
        t.type({ ...placeFields, distanceKm: t.number }),
        t.partial({ localizedName: orNull(t.string) }),
      ]),
    ),
  ),
});

const language = matching(/^[a-z]{2}$/, 'an ISO 639-1 language code (two lower-case letters)');
const LANG_HELP =
  'an ISO 639-1 language: each place then carries localizedName, its name in that language where GeoNames has one told by its script (ja, zh, ko, el, he, hi, th, …; en is GeoNames’ own name), else null';

const encodedPlusCode = t.strict({ code: t.string, ...point, length: t.number });
const decodedPlusCode = t.exact(
  t.intersection([
    t.type({
      code: t.string,
      ...point,
      length: t.number,
      bounds: t.strict({ south: t.number, west: t.number, north: t.number, east: t.number }),
    }),
    t.partial({ shortCode: t.string, reference: t.exact(t.intersection([t.type(point), t.partial({ place })])) }),
  ]),
);

export function locationRoutes(deps: LocationRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/location/coords',
      permission: LocationPermission.LocationCoords,
      summary:
        'Places matching a name (optionally "name, country"), best first: exact names by population, then names starting with it; with the operator\'s geocoder, postal codes and street addresses too',
      query: {
        address: required(
          placeName,
          'a place name, optionally followed by ", " and an ISO 3166 alpha-2 code or an English country name',
        ),
        limit: optional(limitUpTo(MAX_LIMIT), `how many places at most (default ${DEFAULT_PLACES_LIMIT})`),
        mode: optional(
          oneOf(SEARCH_MODES, SEARCH_MODES.join(' or ')),
          'name (the default): places a whole name may mean; prefix: type-ahead, the best places whose name starts with the text typed so far',
        ),
        lang: optional(language, LANG_HELP),
      },
      response: placesNamed,
      // The upstream failures come only from the operator's geocoder (location.geocoderUrl).
      errors: ['InformationNotFound', 'InvalidQueryParameter', 'UpstreamUnavailable', 'UpstreamTimeout'],
      handle: async ({ query, requestId }) =>
        E.map((places: readonly FoundPlace[]) => {
          const attribution = places.some((place) => 'address' in place)
            ? deps.findPlaces.geocoderAttribution
            : undefined;
          return json({ address: query.address, places, ...(attribution !== undefined && { attribution }) });
        })(
          await deps.findPlaces.execute(query.address, query.limit ?? DEFAULT_PLACES_LIMIT, {
            ...(query.mode && { mode: query.mode }),
            ...(query.lang && { lang: query.lang }),
            context: { requestId },
          }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/location/address',
      permission: LocationPermission.LocationAddress,
      summary: 'The places nearest a point, closest first, with their great-circle distance in km',
      query: {
        lat: required(latitude, 'latitude in decimal degrees'),
        lon: required(longitude, 'longitude in decimal degrees'),
        limit: optional(limitUpTo(MAX_LIMIT), `how many places (default ${DEFAULT_NEARBY_LIMIT})`),
        lang: optional(language, LANG_HELP),
      },
      response: nearbyPlaces,
      errors: ['InformationNotFound', 'InvalidQueryParameter'],
      handle: async ({ query }) =>
        jsonOf(
          await deps.findNearbyPlaces.execute(query.lat, query.lon, query.limit ?? DEFAULT_NEARBY_LIMIT, query.lang),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/location/pluscode',
      permission: LocationPermission.LocationPlusCode,
      summary:
        'Plus code of a point (lat, lon, length), or the cell of a code; a short code is recovered near lat/lon or near a place',
      query: {
        lat: optional(latitude, 'latitude: the point to encode, or the reference of a short code'),
        lon: optional(longitude, 'longitude: the point to encode, or the reference of a short code'),
        length: optional(codeLength, 'digits of the code when encoding (default 10)'),
        code: optional(
          plusCodeText,
          'a full plus code to decode, or a short one with a reference: near, lat and lon, or a place after a space ("V75V+8Q Paris")',
        ),
        near: optional(placeName, 'a place whose best match is the reference of a short code'),
      },
      response: t.union([encodedPlusCode, decodedPlusCode]),
      // Which parameters go together, and whether a code or a place is known, are the domain's to say.
      errors: ['MissingQueryParameter', 'InvalidQueryParameter', 'InformationNotFound'],
      handle: async ({ query }) => jsonOf(await deps.lookUpPlusCode.execute(query)),
    }),
  ];
}
