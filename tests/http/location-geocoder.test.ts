import { expect } from 'chai';
import { OSM_ATTRIBUTION } from '../../src/families/location/adapters/geocoders/osm-geocoders.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { GEOCODED, startGeocoderFixture, WHITE_HOUSE, type GeocoderApi } from '../support/geocoder-fixture.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

const coords = (address: string, extra = '') => `/api/location/coords?address=${encodeURIComponent(address)}${extra}`;

describe('http: location with the operator’s geocoder (Photon and Nominatim on loopback)', () => {
  let fixture: FixtureServer;
  let server: TestServer;
  let token: string;

  async function serve(api: GeocoderApi, location: Record<string, unknown> = {}): Promise<void> {
    fixture = await startGeocoderFixture(api);
    server = await startServer({
      env: { UTILITY_API_LOCATION_GEOCODER_URL: fixture.url, UTILITY_API_LOCATION_GEOCODER_API: api },
      // Loopback answers in milliseconds; 500 ms stays well below the slow answer of the deadline test.
      overrides: { location: { timeoutMs: 500, failureTtlMs: 600_000, backoffMs: 600_000, ...location } },
    });
    token = await server.tokenFor(['Location::*']);
  }
  const get = (path: string) => server.get(path, { Authorization: `Bearer ${token}` });
  const json = async (path: string) => {
    const response = await get(path);
    expect(response.status, await response.clone().text()).to.equal(200);
    return (await response.json()) as { address: string; places: Record<string, unknown>[]; attribution?: string };
  };

  afterEach(async () => {
    await server.close();
    await fixture.close();
  });

  for (const api of ['photon', 'nominatim'] as const) {
    it(`${api}: answers a street address the gazetteer cannot know, with the nearest town’s time zone and the data’s credit`, async () => {
      await serve(api);
      const body = await json(coords(GEOCODED.whiteHouse));
      expect(body.attribution).to.equal(OSM_ATTRIBUTION);
      expect(body.places).to.have.length(1);
      const { address, ...place } = body.places[0]! as { address: Record<string, unknown> };
      expect(place).to.deep.equal({
        name: 'White House',
        country: 'US',
        countryName: 'United States',
        admin1: 'District of Columbia',
        admin2: null,
        lat: WHITE_HOUSE.lat,
        lon: WHITE_HOUSE.lon,
        population: null,
        timeZone: 'America/New_York',
      });
      expect(address).to.include(WHITE_HOUSE.address);
      expect(Object.keys(address)).to.deep.equal(['label', 'houseNumber', 'street', 'postcode', 'locality']);
    });
  }

  it('answers postal codes, each in the time zone of its town', async () => {
    await serve('photon');
    const newYork = (await json(coords(GEOCODED.newYorkPostcode))).places[0]!;
    expect(newYork).to.include({ country: 'US', admin1: 'New York', timeZone: 'America/New_York', population: null });
    const london = (await json(coords(GEOCODED.londonPostcode, '&limit=1'))).places;
    expect(london).to.have.length(1);
    expect(london[0]).to.include({ country: 'GB', countryName: 'United Kingdom', timeZone: 'Europe/London' });
    expect(london[0]!.address).to.include({ postcode: 'SW1A 1AA', locality: 'London' });
  });

  it('never asks the geocoder what the gazetteer knows, nor while a person types', async () => {
    await serve('photon');
    const paris = await json(coords('Paris'));
    expect(paris.attribution).to.equal(undefined);
    expect(paris.places[0]).to.include({ name: 'Paris', country: 'FR' });
    await expectError(await get(coords(GEOCODED.newYorkPostcode, '&mode=prefix')), 404, 22);
    expect(fixture.calls).to.deep.equal([]);
  });

  it('keeps the gazetteer’s 404 when the geocoder finds nothing either, and says both were asked', async () => {
    await serve('nominatim');
    const error = await expectError(await get(coords('Nowhere Lane 99')), 404, 22);
    expect(error.details)
      .to.match(/looks like a street address/)
      .and.match(/the geocoder \(Nominatim\) found nothing either$/);
    expect(fixture.calls).to.have.length(1);
  });

  it('answers in the asked language only in English, the language it asks the geocoder in', async () => {
    await serve('photon');
    expect((await json(coords(GEOCODED.whiteHouse, '&lang=en'))).places[0]).to.include({
      localizedName: 'White House',
    });
    expect((await json(coords(GEOCODED.whiteHouse, '&lang=de'))).places[0]).to.include({ localizedName: null });
  });

  it('answers 502 code 29 when the geocoder is down and 504 code 30 past its deadline, never the gazetteer’s 404', async () => {
    await serve('photon');
    fixture.behaviour = 'down';
    const down = await expectError(await get(coords(GEOCODED.newYorkPostcode)), 502, 29);
    expect(down.details).to.equal('The geocoder (Photon) could not be reached');
    fixture.behaviour = 'slow';
    fixture.slowMs = 2_000;
    const late = await expectError(await get(coords(GEOCODED.londonPostcode)), 504, 30);
    expect(late.details).to.equal('The geocoder (Photon) did not answer in time');
  });

  it('refuses a geocoder URL or API it cannot use when the server starts', async () => {
    for (const [name, value] of [
      ['UTILITY_API_LOCATION_GEOCODER_URL', 'ftp://geocoder.example'],
      ['UTILITY_API_LOCATION_GEOCODER_API', 'google'],
    ] as const) {
      let failure: unknown;
      try {
        await startServer({ env: { [name]: value } }).then((started) => started.close());
      } catch (error) {
        failure = error;
      }
      expect(String(failure), name).to.match(/location\.geocoder(Url|Api)/);
    }
    fixture = await startGeocoderFixture('photon');
    server = await startServer();
  });
});
