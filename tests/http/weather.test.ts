import { expect } from 'chai';
import {
  AIR_UNITS,
  BERLIN_AIR,
  BERLIN_FIRST_DAY,
  BERLIN_FIRST_HOUR,
  BERLIN_NOW,
  IMPERIAL_CONDITION_UNITS,
  IMPERIAL_HOUR_UNITS,
  METRIC_CONDITION_UNITS,
  METRIC_DAY_UNITS,
  METRIC_HOUR_UNITS,
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
  'uvIndex',
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
const HOUR_KEYS = [
  'time',
  'temperature',
  'apparentTemperature',
  'precipitation',
  'precipitationProbability',
  'windSpeed',
  'windDirection',
  'windGusts',
  'weatherCode',
  'uvIndex',
  'description',
];
const AIR_KEYS = [
  'location',
  'time',
  'pm25',
  'pm10',
  'ozone',
  'nitrogenDioxide',
  'europeanAqi',
  'usAqi',
  'units',
  'attribution',
];
const ATTRIBUTION =
  'Weather data by Open-Meteo.com (https://open-meteo.com/), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)';
const AIR_ATTRIBUTION =
  'Air quality data by Open-Meteo.com (https://open-meteo.com/), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/); contains modified Copernicus Atmosphere Monitoring Service information';

/** Which of Open-Meteo's APIs was asked, call by call. */
const pathsAsked = (fixture: OpenMeteoFixture) =>
  fixture.calls.map((call) => new URL(call, 'http://open-meteo.test').pathname);

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
          'temperature_2m,apparent_temperature,relative_humidity_2m,precipitation,cloud_cover,pressure_msl,wind_speed_10m,wind_direction_10m,wind_gusts_10m,uv_index,is_day,weather_code',
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

  it('answers the next 48 hours hour by hour, the current one first, with the WMO description and the UV index', async () => {
    const { cache, warning, body } = await json('/api/weather/hourly?lat=52.52&lon=13.41');
    expect(cache).to.equal('fresh');
    expect(warning).to.equal(null);
    expect(Object.keys(body)).to.deep.equal(['location', 'hours', 'units', 'attribution']);
    expect(body.location).to.deep.equal({
      name: null,
      country: null,
      lat: 52.52,
      lon: 13.41,
      timezone: 'Europe/Berlin',
      elevation: 38,
    });
    const hours = body.hours as Record<string, unknown>[];
    expect(hours).to.have.length(48);
    expect(Object.keys(hours[0]!).sort()).to.deep.equal([...HOUR_KEYS].sort());
    expect(hours[0]).to.deep.equal({ ...BERLIN_FIRST_HOUR, description: 'overcast' });
    expect(hours.map((hour) => hour.time).slice(0, 3)).to.deep.equal([
      '2026-11-23T10:00',
      '2026-11-23T11:00',
      '2026-11-23T12:00',
    ]);
    expect(hours[47]!.time).to.equal('2026-11-25T09:00');
    expect([...new Set(hours.map((hour) => hour.description))]).to.deep.equal([
      'overcast',
      'slight rain',
      'moderate rain',
      'slight rain showers',
      'partly cloudy',
      'mainly clear',
    ]);
    // Night hours have no UV at all: 0, not null.
    expect(hours[12]!.uvIndex).to.equal(0);
    expect(body.units).to.deep.equal(METRIC_HOUR_UNITS);
    expect(body.attribution).to.equal(ATTRIBUTION);
    expect(
      asked(openMeteo, 'latitude', 'longitude', 'timezone', 'temperature_unit', 'hourly', 'forecast_hours'),
    ).to.deep.equal([
      {
        latitude: '52.52',
        longitude: '13.41',
        timezone: 'auto',
        temperature_unit: 'celsius',
        hourly:
          'temperature_2m,apparent_temperature,precipitation,precipitation_probability,wind_speed_10m,wind_direction_10m,wind_gusts_10m,weather_code,uv_index',
        forecast_hours: '48',
      },
    ]);

    const imperial = await json('/api/weather/hourly?city=Paris,%20FR&units=imperial&timezone=Europe/Paris');
    expect(imperial.body.location).to.include({ name: 'Paris', country: 'FR', timezone: 'Europe/Paris' });
    expect(imperial.body.units).to.deep.equal(IMPERIAL_HOUR_UNITS);
    expect((imperial.body.hours as unknown[])[0]).to.deep.equal({
      ...BERLIN_FIRST_HOUR,
      temperature: 39.6,
      apparentTemperature: 33.1,
      windSpeed: 7.8,
      windGusts: 15.9,
      description: 'overcast',
    });
    const byHeader = await json('/api/weather/hourly', { 'x-coords': '52.52,13.41' });
    // The same question as the first: answered from the cache.
    expect(byHeader.body.hours).to.deep.equal(body.hours);
    expect(openMeteo.calls).to.have.length(2);
  });

  it('answers the air now from Open-Meteo’s air-quality API, with the credit its data asks for', async () => {
    const { cache, body } = await json('/api/weather/air?lat=52.52&lon=13.41');
    expect(cache).to.equal('fresh');
    expect(Object.keys(body)).to.deep.equal(AIR_KEYS);
    expect(body).to.deep.equal({
      location: { name: null, country: null, lat: 52.52, lon: 13.41, timezone: 'Europe/Berlin', elevation: 38 },
      ...BERLIN_AIR,
      units: AIR_UNITS,
      attribution: AIR_ATTRIBUTION,
    });
    expect(pathsAsked(openMeteo)).to.deep.equal(['/air-quality']);
    expect(asked(openMeteo, 'latitude', 'longitude', 'timezone', 'current', 'temperature_unit')).to.deep.equal([
      {
        latitude: '52.52',
        longitude: '13.41',
        timezone: 'auto',
        current: 'pm2_5,pm10,ozone,nitrogen_dioxide,european_aqi,us_aqi',
        temperature_unit: null,
      },
    ]);
    const tokyo = await json('/api/weather/air?city=Berlin&timezone=Asia/Tokyo');
    expect(tokyo.body.location).to.include({ name: 'Berlin', country: 'DE', timezone: 'Asia/Tokyo' });
    await json('/api/weather/air', { 'x-city': 'Berlin' });
    // Berlin by name is the point asked first, but in another time zone: two questions, the third kept.
    expect(openMeteo.calls).to.have.length(2);
  });

  it('takes units where a measure depends on them and refuses them on the air, whose measures do not (400 code 7)', async () => {
    for (const path of ['current', 'forecast', 'hourly']) {
      expect((await get(`/api/weather/${path}?lat=52.52&lon=13.41&units=imperial`)).status, path).to.equal(200);
      await expectError(await get(`/api/weather/${path}?lat=52.52&lon=13.41&units=kelvin`), 400, 7);
      await expectError(await get(`/api/weather/${path}?lat=52.52&lon=13.41&units=Metric`), 400, 7);
    }
    for (const units of ['metric', 'imperial']) {
      const refused = await expectError(await get(`/api/weather/air?lat=52.52&lon=13.41&units=${units}`), 400, 7);
      expect(refused.details).to.include('units');
    }
    // Nor does an option of another operation mean anything here.
    expect((await expectError(await get('/api/weather/hourly?lat=52.52&lon=13.41&days=2'), 400, 7)).details).to.include(
      'days',
    );
    await expectError(await get('/api/weather/air?lat=52.52&lon=13.41&days=2'), 400, 7);
  });

  it('refuses the hourly forecast and the air without a place, with one given two ways or a bad option, asking nothing', async () => {
    for (const path of ['hourly', 'air']) {
      expect((await expectError(await get(`/api/weather/${path}`), 400, 6)).details).to.equal(
        'Missing: lat, lon, city, x-coords, x-city',
      );
      await expectError(await get(`/api/weather/${path}?lat=52.52`), 400, 6);
      await expectError(await get(`/api/weather/${path}?lat=52.52&lon=13.41&city=Berlin`), 400, 7);
      for (const query of ['lat=91&lon=0', 'lat=52.52&lon=13.41&timezone=europe/paris', 'city=%20'])
        await expectError(await get(`/api/weather/${path}?${query}`), 400, 7);
      await expectError(await get(`/api/weather/${path}`, { 'x-coords': 'north,east' }), 400, 9);
      await expectError(await get(`/api/weather/${path}?city=Nowhere%20At%20All`), 404, 22);
    }
    expect(openMeteo.calls).to.deep.equal([]);
    for (const path of ['hourly', 'air']) {
      const refused = await expectError(
        await get(`/api/weather/${path}?lat=52.52&lon=13.41&timezone=${REFUSED_TIME_ZONE}`),
        400,
        7,
      );
      expect(refused.details).to.equal('Open-Meteo refused the question: Invalid timezone');
    }
  });

  it('keeps the hourly forecast and the air as it keeps the conditions now: stale when Open-Meteo fails, else 502 code 29 or 504 code 30', async () => {
    await serve({}, { hourlyTtlMs: 0, airTtlMs: 0 });
    await json('/api/weather/hourly?lat=52.52&lon=13.41');
    await json('/api/weather/air?lat=52.52&lon=13.41');
    openMeteo.behaviour = 'error';
    for (const path of ['hourly', 'air']) {
      const stale = await json(`/api/weather/${path}?lat=52.52&lon=13.41`);
      expect(stale.cache, path).to.equal('stale');
      expect(stale.warning, path).to.equal('110 - "Response is Stale"');
    }
    openMeteo.behaviour = 'down';
    for (const path of ['hourly', 'air'])
      expect((await expectError(await get(`/api/weather/${path}?city=Paris`), 502, 29)).details).to.equal(
        'Open-Meteo could not be reached',
      );
    openMeteo.behaviour = 'garbage';
    await expectError(await get('/api/weather/hourly?lat=1&lon=1'), 502, 29);
    await expectError(await get('/api/weather/air?lat=1&lon=1'), 502, 29);
    openMeteo.behaviour = 'slow';
    openMeteo.slowMs = 1_000;
    await Promise.all(
      ['hourly', 'air'].map(async (path) =>
        expect((await expectError(await get(`/api/weather/${path}?lat=10&lon=10`), 504, 30)).details).to.equal(
          'Open-Meteo did not answer in time',
        ),
      ),
    );
  });

  it('shares one call among identical requests that arrive together, per API', async () => {
    openMeteo.behaviour = 'slow';
    openMeteo.slowMs = 50;
    const together = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        json(`/api/weather/${index % 2 === 0 ? 'hourly' : 'air'}?lat=-33.87&lon=151.21`),
      ),
    );
    expect(together.map(({ cache }) => cache)).to.deep.equal(Array(6).fill('fresh'));
    expect(pathsAsked(openMeteo).sort()).to.deep.equal(['/air-quality', '/forecast']);
  });

  it('answers 423 code 23 when weather is turned off, asking nothing', async () => {
    await serve({ UTILITY_API_OPEN_METEO_URL: 'off' });
    expect((await expectError(await get('/api/weather/current?lat=52.52&lon=13.41'), 423, 23)).details).to.equal(
      'Weather is turned off on this server',
    );
    await expectError(await get('/api/weather/forecast?city=Berlin'), 423, 23);
    await expectError(await get('/api/weather/hourly?city=Berlin'), 423, 23);
    // Weather off is the air off too, whatever its own address.
    expect((await expectError(await get('/api/weather/air?city=Berlin'), 423, 23)).details).to.equal(
      'Air quality is turned off on this server',
    );
    // Input is still checked first.
    await expectError(await get('/api/weather/forecast'), 400, 6);
    await expectError(await get('/api/weather/air?lat=1&lon=1&units=metric'), 400, 7);
    expect(openMeteo.calls).to.deep.equal([]);

    await serve({ UTILITY_API_OPEN_METEO_AIR_QUALITY_URL: 'off' });
    await expectError(await get('/api/weather/air?lat=52.52&lon=13.41'), 423, 23);
    expect((await json('/api/weather/hourly?lat=52.52&lon=13.41')).cache).to.equal('fresh');
    expect(pathsAsked(openMeteo)).to.deep.equal(['/forecast']);
  });

  it('asks the air-quality API at its own address', async () => {
    const airQuality = await startOpenMeteoFixture();
    try {
      await serve({ UTILITY_API_OPEN_METEO_AIR_QUALITY_URL: airQuality.url });
      await json('/api/weather/air?lat=52.52&lon=13.41');
      await json('/api/weather/hourly?lat=52.52&lon=13.41');
      expect(pathsAsked(airQuality)).to.deep.equal(['/air-quality']);
      expect(pathsAsked(openMeteo)).to.deep.equal(['/forecast']);
    } finally {
      await airQuality.close();
    }
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
    for (const [permission, allowed] of [
      ['Weather::Hourly', 'hourly'],
      ['Weather::Air', 'air'],
    ] as const) {
      const narrow = await server.tokenFor([permission]);
      const as = (path: string) =>
        server.get(`/api/weather/${path}?lat=1&lon=1`, { Authorization: `Bearer ${narrow}` });
      expect((await as(allowed)).status, permission).to.equal(200);
      for (const other of ['current', 'forecast', 'hourly', 'air'].filter((path) => path !== allowed))
        await expectError(await as(other), 403, 1);
      await expectError(await server.get(`/api/weather/${allowed}?lat=1&lon=1`), 401, 3);
    }
  });
});
