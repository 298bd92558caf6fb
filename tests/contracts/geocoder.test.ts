import { expect } from 'chai';
import pino from 'pino';
import { MemoryGeocoder } from '../../src/families/location/adapters/geocoders/memory-geocoder.js';
import {
  NominatimGeocoder,
  OSM_ATTRIBUTION,
  PhotonGeocoder,
  type GeocoderOptions,
} from '../../src/families/location/adapters/geocoders/osm-geocoders.js';
import type { GeocodedAddress } from '../../src/families/location/domain/places.js';
import type { Geocoder, GeocoderResult } from '../../src/families/location/domain/ports.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { GEOCODED, startGeocoderFixture, WHITE_HOUSE, type GeocoderApi } from '../support/geocoder-fixture.js';
import { ManualClock } from '../support/manual-clock.js';

const OPTIONS: Omit<GeocoderOptions, 'baseUrl'> = {
  ttlMs: 60_000,
  deadlineMs: 1_000,
  maxEntries: 10,
  defaultBackoffMs: 1_000,
  failureTtlMs: 5_000,
  hostTtlMs: 60_000,
};
const silent = pino({ level: 'silent' });

/** The memory adapter holds what the fixtures answer, as the HTTP adapters read it. */
const MEMORY_WORLD: Record<string, GeocodedAddress[]> = {
  [GEOCODED.whiteHouse]: [
    {
      ...WHITE_HOUSE,
      address: {
        ...WHITE_HOUSE.address,
        label: 'White House, 1600 Pennsylvania Avenue Northwest, 20500 Washington, District of Columbia, United States',
      },
    },
  ],
  [GEOCODED.newYorkPostcode]: [
    {
      name: '10001 New York',
      country: 'US',
      admin1: 'New York',
      admin2: 'New York County',
      lat: 40.7503,
      lon: -73.9972,
      address: {
        label: '10001 New York, New York, United States',
        houseNumber: null,
        street: null,
        postcode: '10001',
        locality: 'New York',
      },
    },
  ],
  [GEOCODED.londonPostcode]: [
    {
      name: 'SW1A 1AA London',
      country: 'GB',
      admin1: 'England',
      admin2: null,
      lat: 51.501,
      lon: -0.1416,
      address: {
        label: 'SW1A 1AA London, England, United Kingdom',
        houseNumber: null,
        street: null,
        postcode: 'SW1A 1AA',
        locality: 'London',
      },
    },
  ],
};

const overHttp = (api: GeocoderApi, make: (options: GeocoderOptions) => Geocoder) => async () => {
  const fixture = await startGeocoderFixture(api);
  return { geocoder: make({ ...OPTIONS, baseUrl: fixture.url }), close: () => fixture.close() };
};

const adapters: { name: string; open: () => Promise<{ geocoder: Geocoder; close(): Promise<void> }> }[] = [
  { name: 'memory', open: async () => ({ geocoder: new MemoryGeocoder(MEMORY_WORLD), close: async () => {} }) },
  { name: 'Photon over HTTP', open: overHttp('photon', (options) => new PhotonGeocoder(options, silent)) },
  { name: 'Nominatim over HTTP', open: overHttp('nominatim', (options) => new NominatimGeocoder(options, silent)) },
];

const addressesOf = (result: GeocoderResult): readonly GeocodedAddress[] => {
  expect(result.kind, JSON.stringify(result)).to.equal('found');
  return (result as Extract<GeocoderResult, { kind: 'found' }>).addresses;
};

for (const adapter of adapters) {
  describe(`contract: Geocoder (${adapter.name})`, () => {
    let geocoder: Geocoder;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ geocoder, close } = await adapter.open());
    });
    afterEach(async () => close());

    it('finds a street address: its point, its regions and each part of the address, fresh', async () => {
      const result = await geocoder.geocode(GEOCODED.whiteHouse, 5);
      expect(result).to.have.property('stale', false);
      const [found, ...others] = addressesOf(result);
      expect(others).to.deep.equal([]);
      const { address, ...place } = found!;
      const { address: parts, ...expected } = WHITE_HOUSE;
      expect(place).to.deep.equal(expected);
      expect(address).to.include(parts);
      expect(address.label).to.include('1600').and.include('Pennsylvania Avenue Northwest').and.include('Washington');
    });

    it('finds a postal code, whatever the case it is written in, with its town and no street', async () => {
      for (const text of [GEOCODED.londonPostcode, GEOCODED.londonPostcode.toLowerCase()]) {
        const [found, ...others] = addressesOf(await geocoder.geocode(text, 5));
        // The fixtures' second result has no usable point: it is left out.
        expect(others, text).to.deep.equal([]);
        expect(found, text).to.deep.include({ country: 'GB', admin1: 'England', lat: 51.501, lon: -0.1416 });
        expect(found!.address).to.include({
          postcode: 'SW1A 1AA',
          locality: 'London',
          street: null,
          houseNumber: null,
        });
      }
      const [newYork] = addressesOf(await geocoder.geocode(GEOCODED.newYorkPostcode, 1));
      expect(newYork).to.deep.include({ country: 'US', admin1: 'New York', admin2: 'New York County' });
      expect(newYork!.name).to.include('10001');
    });

    it('answers that it found nothing for a text it does not know', async () => {
      expect(await geocoder.geocode('Nowhere Lane 99, Atlantis', 5)).to.deep.equal({
        kind: 'found',
        addresses: [],
        stale: false,
      });
    });
  });
}

describe('Photon and Nominatim over HTTP: the shared upstream client', () => {
  let fixture: FixtureServer;
  afterEach(async () => fixture.close());

  for (const api of ['photon', 'nominatim'] as const) {
    const make = (baseUrl: string, clock = new ManualClock()) =>
      api === 'photon'
        ? new PhotonGeocoder({ ...OPTIONS, baseUrl }, silent, { clock })
        : new NominatimGeocoder({ ...OPTIONS, baseUrl }, silent, { clock });

    it(`${api}: asks in English, keeps an answer for its TTL, and serves it stale when the geocoder then fails`, async () => {
      fixture = await startGeocoderFixture(api);
      const clock = new ManualClock();
      const geocoder = make(fixture.url, clock);
      expect(geocoder.attribution).to.equal(OSM_ATTRIBUTION);
      await geocoder.geocode(GEOCODED.whiteHouse, 3);
      await geocoder.geocode(GEOCODED.whiteHouse, 3);
      expect(fixture.calls).to.have.length(1);
      const asked = new URL(fixture.calls[0]!, 'http://geocoder.test').searchParams;
      expect(asked.get('q')).to.equal(GEOCODED.whiteHouse);
      expect(asked.get('limit')).to.equal('3');
      expect(asked.get(api === 'photon' ? 'lang' : 'accept-language')).to.equal('en');

      clock.advance(OPTIONS.ttlMs + 1);
      fixture.behaviour = 'error';
      const stale = await geocoder.geocode(GEOCODED.whiteHouse, 3);
      expect(stale).to.have.property('stale', true);
      expect(addressesOf(stale)[0]).to.have.property('name', 'White House');
    });

    it(`${api}: says it timed out past its deadline, and that it could not be reached when down or answering 5xx`, async () => {
      fixture = await startGeocoderFixture(api);
      fixture.behaviour = 'slow';
      fixture.slowMs = OPTIONS.deadlineMs * 3;
      expect(await make(fixture.url).geocode(GEOCODED.whiteHouse, 3)).to.deep.equal({
        kind: 'unavailable',
        reason: 'timeout',
      });
      for (const behaviour of ['down', 'error', 'garbage'] as const) {
        fixture.behaviour = behaviour;
        expect(await make(fixture.url).geocode(GEOCODED.whiteHouse, 3), behaviour).to.deep.equal({
          kind: 'unavailable',
          reason: 'failure',
        });
      }
    });
  }
});
