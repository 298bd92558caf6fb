import type { GazetteerEntry } from '../../src/families/location/adapters/geonames/memory-gazetteer.js';
import { SeatRank } from '../../src/families/location/domain/place-ranking.js';
import type { Place } from '../../src/families/location/domain/places.js';
import type { CodeArea } from '../../src/families/location/domain/plus-codes.js';

/** Places exactly as the GeoNames data holds them, to seed the memory gazetteer. */
export const PARIS_FR: Place = {
  name: 'Paris',
  country: 'FR',
  countryName: 'France',
  admin1: 'Île-de-France',
  admin2: 'Paris',
  lat: 48.85341,
  lon: 2.3488,
  population: 2138551,
  timeZone: 'Europe/Paris',
};
export const PARIS_TX: Place = {
  name: 'Paris',
  country: 'US',
  countryName: 'United States',
  admin1: 'Texas',
  admin2: 'Lamar County',
  lat: 33.66094,
  lon: -95.55551,
  population: 24782,
  timeZone: 'America/Chicago',
};
export const TOKYO: Place = {
  name: 'Tokyo',
  country: 'JP',
  countryName: 'Japan',
  admin1: 'Tokyo',
  admin2: null,
  lat: 35.6895,
  lon: 139.69171,
  population: 8336599,
  timeZone: 'Asia/Tokyo',
};
/** A village of 1,145 people in the Gard, with two accents. */
export const VENEJAN: Place = {
  name: 'Vénéjan',
  country: 'FR',
  countryName: 'France',
  admin1: 'Occitanie',
  admin2: 'Gard',
  lat: 44.19729,
  lon: 4.65422,
  population: 1145,
  timeZone: 'Europe/Paris',
};

export const SEEDED_PLACES: readonly Place[] = [PARIS_TX, TOKYO, VENEJAN, PARIS_FR];

/** A state capital (a first-level seat) and two larger places of its name. */
export const SPRINGFIELD_IL: Place = {
  name: 'Springfield',
  country: 'US',
  countryName: 'United States',
  admin1: 'Illinois',
  admin2: 'Sangamon County',
  lat: 39.80172,
  lon: -89.64371,
  population: 116565,
  timeZone: 'America/Chicago',
};
export const SPRINGFIELD_MO: Place = {
  name: 'Springfield',
  country: 'US',
  countryName: 'United States',
  admin1: 'Missouri',
  admin2: 'Greene County',
  lat: 37.21533,
  lon: -93.29824,
  population: 166810,
  timeZone: 'America/Chicago',
};
export const SPRINGFIELD_MA: Place = {
  name: 'Springfield',
  country: 'US',
  countryName: 'United States',
  admin1: 'Massachusetts',
  admin2: 'Hampden County',
  lat: 42.10148,
  lon: -72.58981,
  population: 154341,
  timeZone: 'America/New_York',
};
/** A capital known as "Roma", and a town of that name. */
export const ROME: Place = {
  name: 'Rome',
  country: 'IT',
  countryName: 'Italy',
  admin1: 'Lazio',
  admin2: 'Città metropolitana di Roma Capitale',
  lat: 41.89193,
  lon: 12.51133,
  population: 2318895,
  timeZone: 'Europe/Rome',
};
export const ROMA_TX: Place = {
  name: 'Roma',
  country: 'US',
  countryName: 'United States',
  admin1: 'Texas',
  admin2: 'Starr County',
  lat: 26.40526,
  lon: -99.01581,
  population: 10223,
  timeZone: 'America/Chicago',
};

/** Places with what GeoNames knows of them beyond the API's fields (their seat, their other names), to seed the memory gazetteer. */
export const RANKED_ENTRIES: readonly GazetteerEntry[] = [
  { place: SPRINGFIELD_MO },
  { place: SPRINGFIELD_IL, seat: SeatRank.regionSeat },
  { place: SPRINGFIELD_MA },
  { place: ROMA_TX },
  { place: ROME, seat: SeatRank.capital, otherNames: ['Roma', 'Rom'] },
];

/** The 10-digit cell by the Eiffel Tower, and its 11-digit child, as open-location-code decodes them. */
export const EIFFEL_CELL: CodeArea = {
  code: '8FW4V75V+8Q',
  length: 10,
  south: 48.85825,
  west: 2.294375,
  north: 48.858375,
  east: 2.2945,
};
export const EIFFEL_CELL_11: CodeArea = {
  code: '8FW4V75V+8Q6',
  length: 11,
  south: 48.858275,
  west: 2.294375,
  north: 48.8583,
  east: 2.29440625,
};
/** Same short code V75V+8Q, two degrees further south: which one a reference recovers depends on where it is. */
export const SOUTHERN_TWIN_CELL: CodeArea = {
  code: '8FR4V75V+8Q',
  length: 10,
  south: 46.85825,
  west: 2.294375,
  north: 46.858375,
  east: 2.2945,
};

/**
 * Cells whose south-west corner is a round coordinate, where computing in floating point lands in
 * the neighbour below (48.85 + 90 is 138.849999…), and codes recovered near a pole or from a code
 * with no digits after the separator. The last three are cases of Google's Open Location Code
 * test data (test_data/encoding.csv and shortCodeTests.csv).
 */
export const ROUND_CORNER_CELL: CodeArea = {
  code: '8FW4V922+22',
  length: 10,
  south: 48.85,
  west: 2.35,
  north: 48.850125,
  east: 2.350125,
};
export const ROUND_CORNER_CELL_2: CodeArea = {
  code: '8F75J22M+26',
  length: 10,
  south: 35.6,
  west: 3.033,
  north: 35.600125,
  east: 3.033125,
};
export const EIGHT_DIGIT_CELL: CodeArea = {
  code: '8FJFW222+',
  length: 8,
  south: 42.9,
  west: 9,
  north: 42.9025,
  east: 9.0025,
};
export const NEAR_POLE_CELL: CodeArea = {
  code: 'CFX22222+22',
  length: 10,
  south: 89,
  west: 0,
  north: 89.000125,
  east: 0.000125,
};

export const SEEDED_CELLS: readonly CodeArea[] = [
  EIFFEL_CELL,
  EIFFEL_CELL_11,
  SOUTHERN_TWIN_CELL,
  ROUND_CORNER_CELL,
  ROUND_CORNER_CELL_2,
  EIGHT_DIGIT_CELL,
  NEAR_POLE_CELL,
];
