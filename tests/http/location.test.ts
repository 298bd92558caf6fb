import { expect } from 'chai';
import { expectError, serverForSuite } from '../support/http-server.js';
import type { Place } from '../../src/families/location/domain/places.js';
import { PARIS_FR, TOKYO, VENEJAN } from '../support/location-fixtures.js';

const PLACE_KEYS = ['name', 'country', 'countryName', 'admin1', 'admin2', 'lat', 'lon', 'population', 'timeZone'];

describe('http: location (GeoNames data, open-location-code)', () => {
  const suite = serverForSuite();
  let token: string;
  const get = (path: string) => suite.server.get(path, { Authorization: `Bearer ${token}` });
  const json = async (path: string) => {
    const response = await get(path);
    expect(response.status, path).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    return (await response.json()) as Record<string, unknown>;
  };

  before(async () => {
    token = await suite.server.tokenFor(['Location::*']);
  });

  describe('GET /api/location/coords', () => {
    it('answers a first search, which reads the names', async () => {
      // Runs before any other search of this server: the first one reads both data files. How long
      // that takes is the benches' to measure, not a test's on a shared machine.
      const body = await json('/api/location/coords?address=Lyon');
      expect((body.places as Record<string, unknown>[]).map((place) => place.name)).to.include('Lyon');
    });

    it('finds Paris, the most populous first, each place with exactly six fields', async () => {
      const body = await json('/api/location/coords?address=Paris');
      const places = body.places as Record<string, unknown>[];
      expect(body.address).to.equal('Paris');
      expect(places[0]).to.deep.equal(PARIS_FR);
      expect(places.length).to.be.within(2, 10);
      for (const place of places) expect(Object.keys(place)).to.deep.equal(PLACE_KEYS);
      const populations = places.filter((place) => place.name === 'Paris').map((place) => place.population as number);
      expect(populations).to.deep.equal([...populations].sort((a, b) => b - a));
    });

    it('keeps to the region a qualifier names, by code or name: Cambridge, MA is Cambridge alone', async () => {
      for (const address of ['Cambridge,%20MA', 'Cambridge,%20Massachusetts', 'Cambridge%20MA']) {
        const places = (await json(`/api/location/coords?address=${address}`)).places as Record<string, unknown>[];
        expect(places, address).to.have.length(1);
        expect(places[0], address).to.include({
          name: 'Cambridge',
          admin1: 'Massachusetts',
          admin2: 'Middlesex County',
          timeZone: 'America/New_York',
          countryName: 'United States',
        });
      }
    });

    it('offers the best places whose name starts with the text typed so far, with mode=prefix', async () => {
      const typed = async (address: string, limit = 5) =>
        (
          (await json(`/api/location/coords?mode=prefix&limit=${limit}&address=${encodeURIComponent(address)}`))
            .places as Place[]
        ).map((place) => `${place.name}, ${place.admin1 ?? place.country}`);
      // A state capital of 116,000 before a city of 186,000 and larger places of its own name.
      expect(await typed('Spring')).to.deep.equal([
        'Springfield, Illinois',
        'Springs, Gauteng',
        'Spring Valley, Nevada',
        'Springfield, Missouri',
        'Springfield, Massachusetts',
      ]);
      expect((await typed('Pa', 1))[0]).to.equal('Paris, Île-de-France');
      expect(await typed('Lon', 2)).to.deep.equal(['London, England', 'Long Beach, California']);
      expect((await typed('saint e', 1))[0]).to.equal('Saint-Étienne, Auvergne-Rhône-Alpes');
      expect(await typed('Spring, MO')).to.deep.equal(['Springfield, Missouri']);
      expect(await typed('Paris')).to.include('Paris, Texas');
      const places = (await json('/api/location/coords?mode=prefix&address=Camb')).places as Place[];
      expect(places).to.have.length(10);
      for (const place of places) expect(Object.keys(place)).to.deep.equal(PLACE_KEYS);
      expect(places[0]).to.include({ name: 'Cambridge', country: 'GB', timeZone: 'Europe/London' });
      // mode=name, the default, is what it was.
      expect((await json('/api/location/coords?address=Spring&limit=1&mode=name')).places).to.deep.equal(
        (await json('/api/location/coords?address=Spring&limit=1')).places,
      );
    });

    it('refuses a mode it does not know, and says when no name starts so', async () => {
      for (const mode of ['fuzzy', 'PREFIX', '', 'prefix,name'])
        expect(
          (await expectError(await get(`/api/location/coords?address=Spr&mode=${mode}`), 400, 7)).details,
        ).to.include('mode');
      await expectError(await get('/api/location/coords?address=Spr&mode=prefix&mode=name'), 400, 7);
      const none = await expectError(await get('/api/location/coords?mode=prefix&address=Qqxz'), 404, 22);
      expect(none.details).to.equal('No place\'s name starts with "Qqxz"');
      await expectError(await get('/api/location/coords?mode=prefix&address=%2C%20FR'), 400, 7);
      await expectError(await get('/api/location/coords?mode=prefix&address=Spr%2C%20Atlantis'), 404, 22);
    });

    it('gives each place its name in the asked language where the data tells one, null where not', async () => {
      const named = async (address: string, lang: string, extra = '') =>
        (
          (await json(`/api/location/coords?address=${encodeURIComponent(address)}&lang=${lang}&limit=1${extra}`))
            .places as Place[]
        )[0]!;
      expect(await named('Tokyo', 'ja')).to.deep.equal({ ...TOKYO, localizedName: '東京' });
      expect((await named('Tokyo', 'zh')).localizedName).to.equal('东京');
      expect((await named('München', 'ja')).localizedName).to.equal('ミュンヘン');
      expect((await named('Munich', 'ko')).localizedName).to.equal('뮌헨');
      expect((await named('Paris', 'el')).localizedName).to.equal('Παρίσι');
      expect((await named('Paris', 'hi')).localizedName).to.equal('पेरिस');
      expect((await named('Paris', 'en')).localizedName).to.equal('Paris');
      // Latin-script languages share GeoNames' unlabelled names: München is found, not told German.
      expect(await named('München', 'de')).to.include({ name: 'Munich', localizedName: null });
      expect((await named('Spring', 'ja', '&mode=prefix')).localizedName).to.equal('スプリングフィールド');
      const nearTokyo = await json('/api/location/address?lat=35.6895&lon=139.69171&limit=1&lang=ja');
      expect(nearTokyo.places).to.deep.equal([{ ...TOKYO, localizedName: '東京', distanceKm: 0 }]);
      // Without lang, no localizedName at all.
      expect(Object.keys(await named('Tokyo', 'ja')).length - 1).to.equal(PLACE_KEYS.length);
      expect(((await json('/api/location/coords?address=Tokyo&limit=1')).places as Place[])[0]).to.deep.equal(TOKYO);
    });

    it('refuses a lang that is no ISO 639-1 code', async () => {
      for (const lang of ['xx', 'DE', 'deu', 'de-AT', '', 'j']) {
        const error = await expectError(await get(`/api/location/coords?address=Tokyo&lang=${lang}`), 400, 7);
        expect(error.details, lang).to.include('lang');
        await expectError(await get(`/api/location/address?lat=1&lon=2&lang=${lang}`), 400, 7);
      }
      await expectError(await get('/api/location/coords?address=Tokyo&lang=ja&lang=zh'), 400, 7);
    });

    it('says a postal code or a street address is beyond the offline data, rather than only that no place has that name', async () => {
      for (const [address, kind] of [
        ['10001', 'a postal code'],
        ['SW1A 1AA', 'a postal code'],
        ['K1A 0B1', 'a postal code'],
        ['75008 Paris', 'a postal code and its town'],
        ['1600 Pennsylvania Avenue', 'a street address'],
        ['1600 Pennsylvania Avenue NW, Washington, DC', 'a street address'],
        ['221B Baker Street, London', 'a street address'],
        ['Rue de Rivoli 10, Paris', 'a street address'],
      ]) {
        const error = await expectError(
          await get(`/api/location/coords?address=${encodeURIComponent(address!)}`),
          404,
          22,
        );
        expect(error.details, address).to.equal(
          `"${address}" looks like ${kind}: the offline gazetteer knows populated places (cities, towns, villages), not postal codes or street addresses: ask for the town, e.g. "London, GB"`,
        );
      }
      // Places whose names hold digits are still places.
      expect(
        ((await json('/api/location/coords?address=100%20Mile%20House&limit=1')).places as Place[])[0]!.name,
      ).to.equal('100 Mile House');
      expect((await expectError(await get('/api/location/coords?address=Qwxzyville'), 404, 22)).details).to.equal(
        'No place named "Qwxzyville" is known',
      );
    });

    it('finds Tokyo', async () => {
      const body = await json('/api/location/coords?address=tokyo&limit=1');
      expect(body.places).to.deep.equal([TOKYO]);
    });

    it('names the region GeoNames gives a place today, also where it has reassigned region codes', async () => {
      const regionOf = async (address: string) =>
        ((await json(`/api/location/coords?address=${address}&limit=1`)).places as { admin1: unknown }[])[0]!.admin1;
      expect(await regionOf('Hanoi')).to.equal('Hanoi');
      expect(await regionOf('Ho%20Chi%20Minh%20City')).to.equal('Ho Chi Minh City (HCMC)');
      expect(await regionOf('Tlapanaloya')).to.equal('México');
      expect(await regionOf('Timimoun')).to.equal('Timimoun');
    });

    it('finds a village whatever the accents and case, and by the start of its name', async () => {
      for (const address of [
        'V%C3%A9n%C3%A9jan',
        'venejan',
        'VENEJAN%2C%20France',
        'v%C3%A9n%C3%A9jan%2C%20fr',
        'Venej',
      ]) {
        const body = await json(`/api/location/coords?address=${address}`);
        expect((body.places as unknown[])[0], address).to.deep.equal(VENEJAN);
      }
    });

    it('keeps to the country after the comma, by code or English name', async () => {
      for (const country of ['US', 'United%20States', 'usa']) {
        const places = (await json(`/api/location/coords?address=Paris,${country}&limit=50`)).places as {
          country: string;
        }[];
        expect(places.length).to.be.greaterThan(3);
        expect(new Set(places.map((place) => place.country))).to.deep.equal(new Set(['US']));
      }
    });

    it('puts the capital, then seats of regions, then the most populous first among places of one name', async () => {
      const firstOf = async (address: string) =>
        ((await json(`/api/location/coords?address=${encodeURIComponent(address)}&limit=3`)).places as Place[])[0]!;
      const expected: [string, Partial<Place>][] = [
        ['Washington', { name: 'Washington, D.C.', country: 'US', admin1: 'District of Columbia' }],
        ['Paris', { country: 'FR' }],
        ['London', { country: 'GB' }],
        ['Moscow', { country: 'RU' }],
        ['Springfield', { country: 'US', admin1: 'Illinois' }],
        ['Victoria', { country: 'SC' }],
        ['Kingston', { country: 'JM' }],
        ['San Jose', { country: 'CR' }],
        ['Dublin', { country: 'IE' }],
        ['Columbus', { country: 'US', admin1: 'Ohio' }],
        ['Salem', { country: 'US', admin1: 'Oregon' }],
        ['Richmond', { country: 'US', admin1: 'Virginia' }],
        ['Hyderabad', { country: 'IN' }],
        ['Córdoba', { country: 'AR' }],
        // No seat among them: the most populous, not a county seat of 4,500 people.
        ['Aurora', { country: 'US', admin1: 'Colorado' }],
        ['Portland', { country: 'US', admin1: 'Oregon' }],
        ['Manchester', { country: 'GB' }],
        ['Frankfurt', { name: 'Frankfurt am Main', country: 'DE' }],
      ];
      for (const [address, place] of expected) expect(await firstOf(address), address).to.deep.include(place);
    });

    it('finds places by their local and other names, behind places of that very name unless far more important', async () => {
      const firstOf = async (address: string) =>
        ((await json(`/api/location/coords?address=${encodeURIComponent(address)}&limit=3`)).places as Place[])[0]!;
      const expected: [string, Partial<Place>][] = [
        ['München', { name: 'Munich', country: 'DE' }],
        ['Muenchen', { name: 'Munich', country: 'DE' }],
        ['København', { name: 'Copenhagen', country: 'DK' }],
        ['Wien', { name: 'Vienna', country: 'AT' }],
        ['北京', { name: 'Beijing', country: 'CN' }],
        ['Москва', { name: 'Moscow', country: 'RU' }],
        ['Roma', { name: 'Rome', country: 'IT' }],
        ['Warszawa', { name: 'Warsaw', country: 'PL' }],
        ['Bombay', { name: 'Mumbai', country: 'IN' }],
        ['Den Haag', { name: 'The Hague', country: 'NL' }],
      ];
      for (const [address, place] of expected) expect(await firstOf(address), address).to.deep.include(place);
      // The place's own name is what is shown, and a name is found once however many of its names match.
      const wien = (await json(`/api/location/coords?address=Wien,%20AT&limit=50`)).places as Place[];
      expect(wien.filter((place) => place.name === 'Vienna')).to.have.length(1);
    });

    it('reads a country, or a first-level region by name or code, after the comma or as the last words', async () => {
      const places = async (address: string) =>
        (await json(`/api/location/coords?address=${encodeURIComponent(address)}&limit=5`)).places as Place[];
      for (const address of ['Paris, Texas', 'Paris, TX', 'Paris Texas', 'paris, tx']) {
        expect((await places(address))[0], address).to.deep.include({ name: 'Paris', country: 'US', admin1: 'Texas' });
      }
      for (const address of [
        'Washington, D.C.',
        'Washington DC',
        'Washington D.C.',
        'Washington, DC',
        'Washington, District of Columbia',
        'washington dc',
      ]) {
        expect((await places(address))[0], address).to.deep.include({ name: 'Washington, D.C.', country: 'US' });
      }
      expect((await places('Munich, Bavaria'))[0]).to.deep.include({ name: 'Munich', admin1: 'Bavaria' });
      expect((await places('Springfield, MO'))[0]).to.deep.include({ name: 'Springfield', admin1: 'Missouri' });
      // IL is Israel's code and Illinois's: either may be meant, and Illinois has the Springfield.
      expect((await places('Springfield, IL'))[0]).to.deep.include({ name: 'Springfield', admin1: 'Illinois' });
      expect((await places('Portland Maine'))[0]).to.deep.include({ name: 'Portland', admin1: 'Maine' });
      expect((await places('Paris, France'))[0]).to.deep.include({ country: 'FR' });
      expect((await places('Paris, U.S.'))[0]).to.deep.include({ country: 'US' });
      const texasOnly = await places('Paris, Texas');
      expect(new Set(texasOnly.map((place) => place.admin1))).to.deep.equal(new Set(['Texas']));
      // A known qualifier without that place there is an ordinary "no such place".
      const noTokyo = await expectError(await get('/api/location/coords?address=Tokyo,%20Texas'), 404, 22);
      expect(noTokyo.details).to.equal('No place named "Tokyo, Texas" is known');
      const unknown = await expectError(await get('/api/location/coords?address=Washington,%20Xyzzy'), 404, 22);
      expect(unknown.details).to.include('"Xyzzy" is neither a country nor a region').and.to.include('"Paris, Texas"');
      // Where what follows the comma is no country or region, the whole text may be a place's own name.
      expect((await places('Santa Rita, Copan'))[0]).to.deep.include({ name: 'Santa Rita, Copan', country: 'HN' });
      expect((await places('Xeraco,Jaraco'))[0]).to.deep.include({ name: 'Xeraco,Jaraco', country: 'ES' });
    });

    it('answers 400/6 without an address, 400/7 for a bad one or limit, 404/22 for no match', async () => {
      await expectError(await get('/api/location/coords'), 400, 6);
      await expectError(await get('/api/location/coords?address='), 400, 7);
      await expectError(await get('/api/location/coords?address=%20-%20'), 400, 7);
      await expectError(await get(`/api/location/coords?address=${'x'.repeat(201)}`), 400, 7);
      const atlantis = await expectError(await get('/api/location/coords?address=Paris,%20Atlantis'), 404, 22);
      expect(atlantis.details).to.include('"Atlantis" is neither a country nor a region').and.to.include('"Paris, TX"');
      for (const limit of ['0', '51', 'ten', '1.5', '-1'])
        await expectError(await get(`/api/location/coords?address=Paris&limit=${limit}`), 400, 7);
      await expectError(await get('/api/location/coords?address=Paris&address=Lyon'), 400, 7);
      await expectError(await get('/api/location/coords?address=Qwxzyville%20Nowhere'), 404, 22);
      await expectError(await get('/api/location/coords?address=Tokyo,%20FR'), 404, 22);
    });
  });

  describe('GET /api/location/address', () => {
    it('gives the five places nearest a point, closest first, with distances in km', async () => {
      const body = await json('/api/location/address?lat=48.8566&lon=2.3522');
      expect(body).to.have.keys(['lat', 'lon', 'nearbyKm', 'farFromPlaces', 'places']);
      expect(body.lat).to.equal(48.8566);
      expect(body.nearbyKm).to.equal(50);
      expect(body.farFromPlaces).to.equal(false);
      const places = body.places as { name: string; distanceKm: number }[];
      expect(places).to.have.length(5);
      expect(places[0]).to.deep.equal({ ...PARIS_FR, distanceKm: 0.433 });
      for (const place of places) expect(Object.keys(place)).to.deep.equal([...PLACE_KEYS, 'distanceKm']);
      const distances = places.map((place) => place.distanceKm);
      expect(distances).to.deep.equal([...distances].sort((a, b) => a - b));
    });

    it('finds the village at its own point, and honours limit', async () => {
      const body = await json(`/api/location/address?lat=${VENEJAN.lat}&lon=${VENEJAN.lon}&limit=1`);
      expect(body.places).to.deep.equal([{ ...VENEJAN, distanceKm: 0 }]);
      expect((await json('/api/location/address?lat=35.6895&lon=139.69171&limit=50')).places).to.have.length(50);
    });

    it('says when the point is far from any place (at sea, at a pole) instead of passing a town 578 km away off as near', async () => {
      const atSea = await json('/api/location/address?lat=0&lon=0&limit=1');
      expect(atSea.farFromPlaces).to.equal(true);
      expect(atSea.nearbyKm).to.equal(50);
      expect(atSea.places).to.deep.equal([
        {
          name: 'Takoradi',
          country: 'GH',
          countryName: 'Ghana',
          admin1: 'Western',
          admin2: 'Secondi Takoradi',
          lat: 4.89816,
          lon: -1.76029,
          population: 232919,
          timeZone: 'Africa/Accra',
          distanceKm: 578.674,
        },
      ]);
      expect((await json('/api/location/address?lat=90&lon=0&limit=1')).farFromPlaces).to.equal(true);
      expect(
        (await json('/api/location/address?lat=23.4&lon=25.7&limit=1')).farFromPlaces,
        'the Libyan desert',
      ).to.equal(true);
      // 30 km off Marseille is near enough.
      expect((await json('/api/location/address?lat=43.05&lon=5.4&limit=1')).farFromPlaces).to.equal(false);
    });

    it('answers 400/6 for a missing coordinate and 400/7 for anything but a plain decimal in range', async () => {
      await expectError(await get('/api/location/address?lat=48.85'), 400, 6);
      await expectError(await get('/api/location/address'), 400, 6);
      for (const lat of ['91', '-90.0001', '1e3', '', 'NaN', '0x10', 'Infinity', '4 8', '48,85', '.']) {
        const error = await expectError(
          await get(`/api/location/address?lat=${encodeURIComponent(lat)}&lon=2`),
          400,
          7,
        );
        expect(error.details, lat).to.include('lat');
      }
      await expectError(await get('/api/location/address?lat=0&lon=180.5'), 400, 7);
      await expectError(await get('/api/location/address?lat=0&lon=0&limit=0'), 400, 7);
    });
  });

  describe('GET /api/location/pluscode', () => {
    it('encodes a point, 10 digits by default or the asked length', async () => {
      expect(await json('/api/location/pluscode?lat=48.85829&lon=2.2944')).to.deep.equal({
        code: '8FW4V75V+8Q',
        lat: 48.85829,
        lon: 2.2944,
        length: 10,
      });
      expect(await json('/api/location/pluscode?lat=48.85829&lon=2.2944&length=11')).to.deep.include({
        code: '8FW4V75V+8Q6',
        length: 11,
      });
      expect(await json('/api/location/pluscode?lat=48.85829&lon=2.2944&length=4')).to.deep.include({
        code: '8FW40000+',
        length: 4,
      });
      // A round coordinate is the corner of its cell, not inside the neighbour below it.
      expect(await json('/api/location/pluscode?lat=48.85&lon=2.35')).to.deep.include({ code: '8FW4V922+22' });
      // 180° east is 180° west; the top edge stays inside the last cell.
      expect(await json('/api/location/pluscode?lat=90&lon=180')).to.deep.include({ code: 'C2X2X2X2+X2' });
    });

    it('decodes a full code into its centre and bounds', async () => {
      expect(await json('/api/location/pluscode?code=8fw4v75v%2B8q')).to.deep.equal({
        code: '8FW4V75V+8Q',
        lat: 48.8583125,
        lon: 2.2944375,
        length: 10,
        bounds: { south: 48.85825, west: 2.294375, north: 48.858375, east: 2.2945 },
      });
    });

    it('recovers a short code near lat/lon or near a place of the gazetteer', async () => {
      expect(await json('/api/location/pluscode?code=V75V%2B8Q&lat=48.9&lon=2.4')).to.deep.include({
        code: '8FW4V75V+8Q',
        shortCode: 'V75V+8Q',
        reference: { lat: 48.9, lon: 2.4 },
      });
      const nearParis = await json('/api/location/pluscode?code=V75V%2B8Q&near=Paris');
      expect(nearParis).to.deep.include({ code: '8FW4V75V+8Q', shortCode: 'V75V+8Q' });
      expect(nearParis.reference).to.deep.equal({ lat: PARIS_FR.lat, lon: PARIS_FR.lon, place: PARIS_FR });
      const nearTokyo = await json('/api/location/pluscode?code=MPJR%2BXX&near=Tokyo,%20Japan');
      expect(nearTokyo.code).to.match(/^8Q7X/);
      // near reads a place as the address does: other names, regions, capitals first.
      const nearMunich = await json(`/api/location/pluscode?code=V75V%2B8Q&near=${encodeURIComponent('München')}`);
      expect((nearMunich.reference as { place: Place }).place).to.deep.include({ name: 'Munich', country: 'DE' });
      const nearDc = await json('/api/location/pluscode?code=V75V%2B8Q&near=Washington%20DC');
      expect((nearDc.reference as { place: Place }).place).to.deep.include({ name: 'Washington, D.C.' });
      expect(
        (await expectError(await get('/api/location/pluscode?code=V75V%2B8Q&near=Paris,%20Atlantis'), 404, 22)).details,
      ).to.include('neither a country nor a region');
    });

    it('reads a place written after the code, as Google writes them, like near', async () => {
      for (const written of ['V75V+8Q Paris', 'V75V+8Q  Paris, France', 'v75v+8q paris']) {
        const body = await json(`/api/location/pluscode?code=${encodeURIComponent(written)}`);
        expect(body, written).to.deep.include({ code: '8FW4V75V+8Q', shortCode: 'V75V+8Q' });
        expect(body.reference, written).to.deep.equal({ lat: PARIS_FR.lat, lon: PARIS_FR.lon, place: PARIS_FR });
      }
      const inTokyo = await json(`/api/location/pluscode?code=${encodeURIComponent('MPJR+XX Tokyo')}`);
      expect(inTokyo.code).to.match(/^8Q7X/);
      const both = await expectError(
        await get(`/api/location/pluscode?code=${encodeURIComponent('V75V+8Q Paris')}&near=Lyon`),
        400,
        7,
      );
      expect(both.details).to.include('not both');
      await expectError(
        await get(`/api/location/pluscode?code=${encodeURIComponent('V75V+8Q Paris')}&lat=1&lon=2`),
        400,
        7,
      );
      await expectError(await get(`/api/location/pluscode?code=${encodeURIComponent('8FW4V75V+8Q Paris')}`), 400, 7);
      await expectError(await get(`/api/location/pluscode?code=${encodeURIComponent('V75V+8Q Qwxzyville')}`), 404, 22);
      await expectError(await get(`/api/location/pluscode?code=${encodeURIComponent('V75V+8Q Par\u0007is')}`), 400, 7);
    });

    it('answers 400/6 with nothing to do, 400/7 for bad codes and references, 404/22 for an unknown place', async () => {
      await expectError(await get('/api/location/pluscode'), 400, 6);
      await expectError(await get('/api/location/pluscode?lat=1'), 400, 6);
      await expectError(await get('/api/location/pluscode?code=V75V%2B8Q&lon=1'), 400, 6);
      const noReference = await expectError(await get('/api/location/pluscode?code=V75V%2B8Q'), 400, 7);
      expect(noReference.details).to.include('reference');
      for (const code of [
        'HELLO%2BWORLD',
        '%2B8Q',
        '8FW4V75V8Q',
        'ZZZZZZZZ%2BZZ',
        '',
        '8FW4V75V%2B8Q%3Cscript%3E',
        `${'2'.repeat(30)}%2B`,
      ]) {
        await expectError(await get(`/api/location/pluscode?code=${code}`), 400, 7);
      }
      await expectError(await get('/api/location/pluscode?lat=100&lon=0'), 400, 7);
      await expectError(await get('/api/location/pluscode?lat=1&lon=2&length=3'), 400, 7);
      await expectError(await get('/api/location/pluscode?lat=1&lon=2&length=16'), 400, 7);
      await expectError(await get('/api/location/pluscode?code=8FW4V75V%2B8Q&length=11'), 400, 7);
      // A full code needs no reference: one given with it is refused, not dropped.
      const referenced = await expectError(await get('/api/location/pluscode?code=8FW4V75V%2B8Q&near=Tokyo'), 400, 7);
      expect(referenced.details).to.equal('a full plus code needs no reference: leave near out, or give a short code');
      expect(
        (await expectError(await get('/api/location/pluscode?code=8FW4V75V%2B8Q&lat=1&lon=2'), 400, 7)).details,
      ).to.match(/^a full plus code needs no reference: leave lat, lon out/);
      await expectError(await get('/api/location/pluscode?near=Paris'), 400, 7);
      await expectError(await get('/api/location/pluscode?code=V75V%2B8Q&near=Paris&lat=1&lon=2'), 400, 7);
      await expectError(await get('/api/location/pluscode?code=V75V%2B8Q&near=Qwxzyville'), 404, 22);
    });
  });

  it('needs the matching Location permission for each endpoint', async () => {
    const coordsOnly = await suite.server.tokenFor(['Location::Coords']);
    const as = (path: string) => suite.server.get(path, { Authorization: `Bearer ${coordsOnly}` });
    expect((await as('/api/location/coords?address=Paris')).status).to.equal(200);
    await expectError(await as('/api/location/address?lat=1&lon=2'), 403, 1);
    await expectError(await as('/api/location/pluscode?lat=1&lon=2'), 403, 1);
    await expectError(await suite.server.get('/api/location/coords?address=Paris'), 401, 3);
  });
});

describe('http: location with location.nearbyKm set', () => {
  const suite = serverForSuite(undefined, { overrides: { location: { nearbyKm: 600 } } });

  it('counts a point as near a place within the set distance', async () => {
    const token = await suite.server.tokenFor(['Location::Address']);
    const response = await suite.server.get('/api/location/address?lat=0&lon=0&limit=1', {
      Authorization: `Bearer ${token}`,
    });
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { nearbyKm: number; farFromPlaces: boolean };
    expect(body).to.include({ nearbyKm: 600, farFromPlaces: false });
  });
});
