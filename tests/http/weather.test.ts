import { expect } from 'chai';
import {
  BERLIN_FIRST_DAY,
  BERLIN_NOW,
  IMPERIAL_CONDITION_UNITS,
  METRIC_CONDITION_UNITS,
  METRIC_DAY_UNITS,
  openMeteoAt,
  REFUSED_TIME_ZONE,
  startOpenMeteoFixture,
  type OpenMeteoFixture,
} from '../support/open-meteo-fixture.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

const CURRENT_KEYS = [
  'location',
  'time',
  'temperature',
  'apparentTemperature',
  'humidity',
  'precipitation',
  'cloudCover',
  'pressure',
  'windSpeed',
  'windDirection',
  'windGusts',
  'isDay',
  'weatherCode',
  'description',
  'units',
  'attribution',
];
const DAY_KEYS = [
  'date',
  'weatherCode',
  'temperatureMax',
  'temperatureMin',
  'precipitationSum',
  'precipitationProbabilityMax',
  'windSpeedMax',
  'sunrise',
  'sunset',
  'description',
];
const ATTRIBUTION =
  'Weather data by Open-Meteo.com (https://open-meteo.com/), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)';

/** What Open-Meteo was asked, by query parameter, call by call. */
const asked = (fixture: OpenMeteoFixture, ...names: string[]) =>
  fixture.calls.map((call) => {
    const parameters = new URL(call, 'http://open-meteo.test').searchParams;
    return Object.fromEntries(names.map((name) => [name, parameters.get(name)]));
  });

describe('http: weather (Open-Meteo on loopback, places from the gazetteer)', () => {
  let openMeteo: OpenMeteoFixture;
  let server: TestServer;
  let token: string;

  async function serve(env: Record<string, string> = {}, weather: Record<string, number> = {}): Promise<void> {
    await server?.close();
    server = await startServer({
      env: { ...openMeteoAt(openMeteo), ...env },
      // The fixture answers on loopback in a few ms, but a CI run with the checks on both cores once
      // took longer than 150 ms; 500 stays well below the 1 s a slow answer takes in the deadline test.
      overrides: { weather: { timeoutMs: 500, failureTtlMs: 600_000, backoffMs: 600_000, ...weather } },
    });
    token = await server.tokenFor(['Weather::*']);
    openMeteo.resetCounts();
  }
  const get = (path: string, headers: Record<string, string> = {}) =>
    server.get(path, { Authorization: `Bearer ${token}`, ...headers });
  const json = async (path: string, headers: Record<string, string> = {}) => {
    const response = await get(path, headers);
    expect(response.status, await response.clone().text()).to.equal(200);
    return {
      cache: response.headers.get('x-cache'),
      warning: response.headers.get('warning'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };

  beforeEach(async () => {
    openMeteo = await startOpenMeteoFixture();
    await serve();
  });
  afterEach(async () => {
    await server.close();
    await openMeteo.close();
  });

  it('answers the weather now at a point in our own shape, with the WMO description and Open-Meteo’s credit', async () => {
    const { cache, warning, body } = await json('/api/weather/current?lat=52.52&lon=13.41');
    expect(cache).to.equal('fresh');
    expect(warning).to.equal(null);
    expect(Object.keys(body)).to.deep.equal(CURRENT_KEYS);
    expect(body).to.deep.equal({
      location: { name: null, country: null, lat: 52.52, lon: 13.41, timezone: 'Europe/Berlin', elevation: 38 },
      ...BERLIN_NOW,
      description: 'overcast',
      units: METRIC_CONDITION_UNITS,
      attribution: ATTRIBUTION,
    });
    expect(asked(openMeteo, 'latitude', 'longitude', 'timezone', 'temperature_unit', 'current')).to.deep.equal([
      {
        latitude: '52.52',
        longitude: '13.41',
        timezone: 'auto',
        temperature_unit: 'celsius',
        current:
          'temperature_2m,apparent_temperature,relative_humidity_2m,precipitation,cloud_cover,pressure_msl,wind_speed_10m,wind_direction_10m,wind_gusts_10m,is_day,weather_code',
      },
    ]);
  });

  it('keeps one answer per point rounded to 0.01° and per options, and asks once for requests that arrive together', async () => {
    await json('/api/weather/current?lat=52.5234&lon=13.4109');
    const nearby = await json('/api/weather/current?lat=52.518&lon=13.405');
    expect(nearby.cache).to.equal('fresh');
    // The point answered is the one asked of Open-Meteo, rounded.
    expect(nearby.body.location).to.include({ lat: 52.52, lon: 13.41 });
    expect(openMeteo.calls).to.have.length(1);

    const imperial = await json('/api/weather/current?lat=52.52&lon=13.41&units=imperial');
    expect(imperial.body.units).to.deep.equal(IMPERIAL_CONDITION_UNITS);
    expect(imperial.body).to.include({ temperature: 39.6, windSpeed: 9.2 });
    const tokyo = await json('/api/weather/current?lat=52.52&lon=13.41&timezone=Asia/Tokyo');
    expect((tokyo.body.location as { timezone: string }).timezone).to.equal('Asia/Tokyo');
    await json('/api/weather/forecast?lat=52.52&lon=13.41');
    await json('/api/weather/forecast?lat=52.52&lon=13.41&days=7');
    expect(asked(openMeteo, 'temperature_unit', 'timezone', 'forecast_days')).to.deep.equal([
      { temperature_unit: 'celsius', timezone: 'auto', forecast_days: null },
      { temperature_unit: 'fahrenheit', timezone: 'auto', forecast_days: null },
      { temperature_unit: 'celsius', timezone: 'Asia/Tokyo', forecast_days: null },
      { temperature_unit: 'celsius', timezone: 'auto', forecast_days: '7' },
    ]);

    openMeteo.resetCounts();
    openMeteo.behaviour = 'slow';
    openMeteo.slowMs = 50;
    const together = await Promise.all(
      Array.from({ length: 5 }, () => json('/api/weather/current?lat=-33.87&lon=151.21')),
    );
    expect(together.map(({ cache }) => cache)).to.deep.equal(Array(5).fill('fresh'));
    expect(openMeteo.calls).to.have.length(1);
  });

  it('answers a forecast by day for a city found in the gazetteer, 7 days unless asked for 1 to 16', async () => {
    const { cache, body } = await json('/api/weather/forecast?city=Berlin');
    expect(cache).to.equal('fresh');
    expect(Object.keys(body)).to.deep.equal(['location', 'days', 'units', 'attribution']);
    expect(body.location).to.deep.equal({
      name: 'Berlin',
      country: 'DE',
      lat: 52.52,
      lon: 13.41,
      timezone: 'Europe/Berlin',
      elevation: 38,
    });
    const days = body.days as Record<string, unknown>[];
    expect(days).to.have.length(7);
    expect(Object.keys(days[0]!).sort()).to.deep.equal([...DAY_KEYS].sort());
    expect(days[0]).to.deep.equal({ ...BERLIN_FIRST_DAY, description: 'overcast' });
    expect(days.map((day) => day.description)).to.deep.equal([
      'overcast',
      'slight rain',
      'slight rain showers',
      'partly cloudy',
      'clear sky',
      'mainly clear',
      'fog',
    ]);
    expect(body.units).to.deep.equal(METRIC_DAY_UNITS);
    expect(body.attribution).to.equal(ATTRIBUTION);

    const sixteen = await json('/api/weather/forecast?city=Berlin,%20DE&days=16');
    expect((sixteen.body.days as unknown[]).length).to.equal(16);
    expect((sixteen.body.days as { description: string }[])[10]!.description).to.equal('thunderstorm');
    expect(((await json('/api/weather/forecast?city=berlin&days=1')).body.days as unknown[]).length).to.equal(1);
    const texas = await json('/api/weather/forecast?city=Paris,%20US&days=2&units=imperial&timezone=America/New_York');
    expect(texas.body.location).to.deep.equal({
      name: 'Paris',
      country: 'US',
      lat: 33.66,
      lon: -95.56,
      timezone: 'America/New_York',
      elevation: 38,
    });
    expect(asked(openMeteo, 'latitude', 'longitude', 'forecast_days')).to.deep.equal([
      { latitude: '52.52', longitude: '13.41', forecast_days: '7' },
      { latitude: '52.52', longitude: '13.41', forecast_days: '16' },
      { latitude: '52.52', longitude: '13.41', forecast_days: '1' },
      { latitude: '33.66', longitude: '-95.56', forecast_days: '2' },
    ]);
  });

  it('takes the place from the original service’s headers, x-coords and x-city', async () => {
    const coords = await json('/api/weather/current', { 'x-coords': '52.52, 13.41' });
    expect(coords.body.location).to.include({ name: null, lat: 52.52, lon: 13.41 });
    const city = await json('/api/weather/forecast?days=3', { 'x-city': 'Paris, FR' });
    expect(city.body.location).to.include({ name: 'Paris', country: 'FR', lat: 48.85, lon: 2.35 });
  });

  it('refuses a request without a place (6), with a place given two ways (7; 9 between the headers) or a bad option (7), asking Open-Meteo nothing', async () => {
    const none = await expectError(await get('/api/weather/current'), 400, 6);
    expect(none.details).to.equal('Missing: lat, lon, city, x-coords, x-city');
    expect((await expectError(await get('/api/weather/forecast?lat=52.52'), 400, 6)).details).to.equal('Missing: lon');
    expect(
      (await expectError(await get('/api/weather/current?lat=52.52&lon=13.41&city=Berlin'), 400, 7)).details,
    ).to.include('one way');
    await expectError(await get('/api/weather/current?city=Berlin', { 'x-coords': '52.52,13.41' }), 400, 7);
    await expectError(await get('/api/weather/current', { 'x-coords': '52.52,13.41', 'x-city': 'Berlin' }), 400, 9);
    for (const query of [
      'lat=91&lon=0',
      'lat=1e1&lon=0',
      'lat=52.52&lon=13.41&units=kelvin',
      'lat=52.52&lon=13.41&timezone=europe/paris',
      'lat=52.52&lon=13.41&timezone=Mars/Olympus',
      'city=%20',
    ]) {
      await expectError(await get(`/api/weather/current?${query}`), 400, 7);
    }
    // A qualifier that names no country or region is not found, with a hint, like an unknown name.
    expect((await expectError(await get('/api/weather/current?city=Berlin,%20Atlantis'), 404, 22)).details).to.include(
      'neither a country nor a region',
    );
    expect(
      (await expectError(await get('/api/weather/current', { 'x-city': 'Berlin, Atlantis' }), 404, 22)).details,
    ).to.include('"Atlantis"');
    for (const days of ['0', '17', '1.5', 'seven'])
      await expectError(await get(`/api/weather/forecast?lat=52.52&lon=13.41&days=${days}`), 400, 7);
    for (const coords of ['52.52', '52.52;13.41', '91,0', 'north,east'])
      await expectError(await get('/api/weather/current', { 'x-coords': coords }), 400, 9);
    const unknown = await expectError(await get('/api/weather/current?city=Nowhere%20At%20All'), 404, 22);
    expect(unknown.details).to.equal('No place named "Nowhere At All" is known');
    await expectError(await get('/api/weather/forecast', { 'x-city': 'Nowhere At All' }), 404, 22);
    expect(openMeteo.calls).to.deep.equal([]);
  });

  it('answers Open-Meteo’s refusal of a question as 400 code 7 with its reason', async () => {
    const refused = await expectError(
      await get(`/api/weather/current?lat=52.52&lon=13.41&timezone=${REFUSED_TIME_ZONE}`),
      400,
      7,
    );
    expect(refused.details).to.equal('Open-Meteo refused the question: Invalid timezone');
    await expectError(await get(`/api/weather/forecast?city=Berlin&timezone=${REFUSED_TIME_ZONE}`), 400, 7);
  });

  it('serves an expired answer as stale when Open-Meteo fails; with nothing kept, 502 code 29, or 504 code 30 past the deadline', async () => {
    await serve({}, { currentTtlMs: 0, forecastTtlMs: 0 });
    await json('/api/weather/current?lat=52.52&lon=13.41');
    openMeteo.behaviour = 'error';
    const stale = await json('/api/weather/current?lat=52.52&lon=13.41');
    expect(stale.cache).to.equal('stale');
    expect(stale.warning).to.equal('110 - "Response is Stale"');
    expect(stale.body.temperature).to.equal(BERLIN_NOW.temperature);

    openMeteo.behaviour = 'down';
    const down = await expectError(await get('/api/weather/forecast?city=Berlin'), 502, 29);
    expect(down.details).to.equal('Open-Meteo could not be reached');
    openMeteo.resetCounts();
    await expectError(await get('/api/weather/forecast?city=Berlin'), 502, 29);
    // The failure is remembered: a dead upstream costs one call, not one per request.
    expect(openMeteo.calls).to.deep.equal([]);

    openMeteo.behaviour = 'garbage';
    await expectError(await get('/api/weather/current?lat=0&lon=0'), 502, 29);
    openMeteo.behaviour = 'slow';
    openMeteo.slowMs = 1_000;
    expect((await expectError(await get('/api/weather/forecast?lat=10&lon=10'), 504, 30)).details).to.equal(
      'Open-Meteo did not answer in time',
    );
  });

  it('answers 423 code 23 when weather is turned off, asking nothing', async () => {
    await serve({ UTILITY_API_OPEN_METEO_URL: 'off' });
    expect((await expectError(await get('/api/weather/current?lat=52.52&lon=13.41'), 423, 23)).details).to.equal(
      'Weather is turned off on this server',
    );
    await expectError(await get('/api/weather/forecast?city=Berlin'), 423, 23);
    // Input is still checked first.
    await expectError(await get('/api/weather/forecast'), 400, 6);
    expect(openMeteo.calls).to.deep.equal([]);
  });

  it('needs the permission of each endpoint', async () => {
    const currentOnly = await server.tokenFor(['Weather::Current']);
    expect(
      (await server.get('/api/weather/current?lat=1&lon=1', { Authorization: `Bearer ${currentOnly}` })).status,
    ).to.equal(200);
    await expectError(
      await server.get('/api/weather/forecast?lat=1&lon=1', { Authorization: `Bearer ${currentOnly}` }),
      403,
      1,
    );
    await expectError(await server.get('/api/weather/current?lat=1&lon=1'), 401, 3);
  });
});
