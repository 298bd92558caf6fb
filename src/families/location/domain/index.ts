/**
 * What other families and library users may use of places: its use cases, what they take and
 * answer, its ports and its permissions, and finding a place by its name or checking a point over
 * the gazetteer port. Weather reaches places through this entry and nothing else, and binds the
 * gazetteer by its identifier, hence `Gazetteer` as a value too.
 */
export type {
  DecodedPlusCode,
  EncodedPlusCode,
  FindNearbyPlaces,
  FindPlaces,
  LookUpPlusCode,
  NearbyPlaces,
  PlusCodeRequest,
} from './location-queries.js';
export { checkCoordinates, findPlacesNamed } from './location-queries.js';
export type { AddressPlace, FoundPlace, GeocodedAddress, NearbyPlace, Place, PostalAddress } from './places.js';
export { Gazetteer, Geocoder } from './ports.js';
export type { GeocoderResult, PlusCodes } from './ports.js';
export { LocationPermission } from './permissions.js';
