import { expect } from 'chai';
import { MemoryGazetteer } from '../../src/families/location/adapters/geonames/memory-gazetteer.js';
import { MemoryWeatherSource } from '../../src/families/weather/adapters/memory-weather-source.js';
import { isTimeZoneName } from '../../src/families/weather/domain/time-zones.js';
import { describeWeatherCode, WEATHER_CODE_LIST } from '../../src/families/weather/domain/weather.js';
import {
  GetAirQuality,
  GetCurrentWeather,
  GetForecast,
  GetHourlyForecast,
  type AirRequest,
} from '../../src/families/weather/domain/weather-queries.js';
import { expectLeftTag, expectRight } from '../support/either.js';
import { PARIS_TX, SEEDED_PLACES, TOKYO } from '../support/location-fixtures.js';
import {
  BERLIN_AIR,
  BERLIN_FIRST_DAY,
  BERLIN_FIRST_HOUR,
  BERLIN_NOW,
  BERLIN_WORLD,
} from '../support/open-meteo-fixture.js';

describe('domain: weather', () => {
  let source: MemoryWeatherSource;
  let current: GetCurrentWeather;
  let forecast: GetForecast;
  let hourly: GetHourlyForecast;
  let air: GetAirQuality;
  beforeEach(() => {
    source = new MemoryWeatherSource(BERLIN_WORLD);
    const gazetteer = new MemoryGazetteer(SEEDED_PLACES);
    current = new GetCurrentWeather(source, gazetteer);
    forecast = new GetForecast(source, gazetteer);
    hourly = new GetHourlyForecast(source, gazetteer);
    air = new GetAirQuality(source, gazetteer);
  });

  it('asks the source about the point rounded to 0.01°, in metric and the place’s own time zone unless told otherwise', async () => {
    const { value, stale } = expectRight(await current.execute({ lat: 48.85341, lon: -0.004999 }));
    expect(stale).to.equal(false);
    expect(source.asked).to.deep.equal([{ point: { lat: 48.85, lon: 0 }, units: 'metric', timezone: 'auto' }]);
    // -0.004999 rounds to -0, answered and asked as 0: both sides of a meridian share one question.
    expect(Object.is(source.asked[0]!.point.lon, 0)).to.equal(true);
    expect(value).to.deep.equal({
      location: { name: null, country: null, lat: 48.85, lon: 0, timezone: 'Europe/Berlin', elevation: 38 },
      ...BERLIN_NOW,
      description: 'overcast',
      units: BERLIN_WORLD.current.metric.units,
      attribution: source.attribution,
    });
  });

  it('finds a city (with an optional country) in the gazetteer, by query or by the original headers', async () => {
    const paris = expectRight(
      await forecast.execute({ city: 'paris', days: 2, units: 'imperial', timezone: 'Europe/Paris' }),
    ).value;
    expect(paris.location).to.deep.equal({
      name: 'Paris',
      country: 'FR',
      lat: 48.85,
      lon: 2.35,
      timezone: 'Europe/Paris',
      elevation: 38,
    });
    expect(paris.days).to.have.length(2);
    expect(paris.units).to.deep.equal(BERLIN_WORLD.forecast.imperial.units);
    expect(expectRight(await forecast.execute({ legacyCity: 'Paris, US' })).value.location).to.include({
      name: 'Paris',
      country: 'US',
      lat: 33.66,
      lon: -95.56,
    });
    expect(
      expectRight(await current.execute({ legacyCoords: { lat: TOKYO.lat, lon: TOKYO.lon } })).value.location,
    ).to.include({ name: null, lat: 35.69, lon: 139.69 });
    expect(source.asked.map(({ point }) => point)).to.deep.equal([
      { lat: 48.85, lon: 2.35 },
      { lat: Math.round(PARIS_TX.lat * 100) / 100, lon: Math.round(PARIS_TX.lon * 100) / 100 },
      { lat: 35.69, lon: 139.69 },
    ]);
  });

  it('gives a forecast of 7 days by default, each with its code in words', async () => {
    const { days } = expectRight(await forecast.execute({ lat: 52.52, lon: 13.41 })).value;
    expect(days).to.have.length(7);
    expect(days[0]).to.deep.equal({ ...BERLIN_FIRST_DAY, description: 'overcast' });
    expect(source.asked).to.deep.equal([
      { point: { lat: 52.52, lon: 13.41 }, units: 'metric', timezone: 'auto', days: 7 },
    ]);
  });

  it('gives the next 48 hours, each with its code in words, in the units and time zone asked', async () => {
    const { value } = expectRight(await hourly.execute({ city: 'paris', units: 'imperial', timezone: 'Europe/Paris' }));
    expect(value.location).to.include({ name: 'Paris', country: 'FR', timezone: 'Europe/Paris' });
    expect(value.hours).to.have.length(48);
    expect(value.hours[0]).to.deep.include({
      time: BERLIN_FIRST_HOUR.time,
      temperature: 39.6,
      description: 'overcast',
    });
    expect(value.hours[13]!.description).to.equal('slight rain');
    expect(value.units).to.deep.equal(BERLIN_WORLD.hourly.imperial.units);
    expect(value.attribution).to.equal(source.attribution);
    expect(expectRight(await hourly.execute({ lat: 52.52, lon: 13.41 })).value.hours[0]).to.deep.equal({
      ...BERLIN_FIRST_HOUR,
      description: 'overcast',
    });
    expect(source.asked).to.deep.equal([
      { point: { lat: 48.85, lon: 2.35 }, units: 'imperial', timezone: 'Europe/Paris' },
      { point: { lat: 52.52, lon: 13.41 }, units: 'metric', timezone: 'auto' },
    ]);
  });

  it('gives the air now with the credit its data asks for, asking the source with no system of units', async () => {
    const { value } = expectRight(await air.execute({ legacyCoords: { lat: 52.5234, lon: 13.4109 } }));
    expect(value).to.deep.equal({
      location: { name: null, country: null, lat: 52.52, lon: 13.41, timezone: 'Europe/Berlin', elevation: 38 },
      ...BERLIN_AIR,
      units: BERLIN_WORLD.air.units,
      attribution: source.airAttribution,
    });
    expect(source.asked).to.deep.equal([{ point: { lat: 52.52, lon: 13.41 }, timezone: 'auto' }]);
    expect(
      expectLeftTag(await air.execute({ lat: 1, lon: 1, timezone: 'Mars/Olympus' }), 'InvalidInput'),
    ).to.deep.include({ fields: ['timezone'] });
    expect(
      expectLeftTag(await hourly.execute({ lat: 1, lon: 1, units: 'kelvin' as never }), 'InvalidInput'),
    ).to.deep.include({ fields: ['units'] });
    expect(
      expectLeftTag(await air.execute({ lat: 1, lon: 1, units: 'metric' } as AirRequest), 'InvalidInput'),
    ).to.deep.include({ fields: ['units'] });
    expect(source.asked).to.have.length(1);
    source.failure = { kind: 'off' };
    expect(expectLeftTag(await air.execute({ lat: 1, lon: 1 }), 'EndpointDisabled')).to.deep.equal({
      _tag: 'EndpointDisabled',
      details: 'Air quality is turned off on this server',
    });
    expectLeftTag(await hourly.execute({ lat: 1, lon: 1 }), 'EndpointDisabled');
  });

  it('refuses a place given no way, half a way or two ways, and bad options, before asking anything', async () => {
    expect(expectLeftTag(await current.execute({}), 'MissingInput')).to.deep.equal({
      _tag: 'MissingInput',
      fields: ['lat', 'lon', 'city', 'legacyCoords', 'legacyCity'],
    });
    expect(expectLeftTag(await current.execute({ lon: 1 }), 'MissingInput')).to.deep.equal({
      _tag: 'MissingInput',
      fields: ['lat'],
    });
    const refusals = [
      [{ lat: 1, lon: 1, city: 'Paris' }, ['lat', 'lon', 'city']],
      [{ city: 'Paris', legacyCity: 'Paris' }, ['city', 'legacyCity']],
      [{ legacyCoords: { lat: 1, lon: 1 }, legacyCity: 'Paris' }, ['legacyCoords', 'legacyCity']],
      [{ lat: 91, lon: 0 }, ['lat']],
      [{ lat: 0, lon: Number.NaN }, ['lon']],
      [{ legacyCoords: { lat: 0, lon: 200 } }, ['legacyCoords']],
      [{ city: '   ' }, ['city']],
      [{ city: 'Paris\u202e' }, ['city']],
      [{ lat: 1, lon: 1, units: 'kelvin' as never }, ['units']],
      [{ lat: 1, lon: 1, timezone: 'europe/paris' }, ['timezone']],
      [{ lat: 1, lon: 1, timezone: 'Mars/Olympus' }, ['timezone']],
      [{ lat: 1, lon: 1, timezone: '' }, ['timezone']],
    ] as const;
    for (const [request, fields] of refusals) {
      const refused = expectLeftTag(await current.execute(request), 'InvalidInput');
      expect(refused, JSON.stringify(request)).to.include.keys('reason');
      expect((refused as { fields: readonly string[] }).fields, JSON.stringify(request)).to.deep.equal(fields);
    }
    for (const days of [0, 17, 2.5, Number.NaN]) {
      expect(
        (
          expectLeftTag(await forecast.execute({ lat: 1, lon: 1, days }), 'InvalidInput') as {
            fields: readonly string[];
          }
        ).fields,
      ).to.deep.equal(['days']);
    }
    expect(expectLeftTag(await current.execute({ legacyCity: 'Paris, Atlantis' }), 'InformationNotFound'))
      .to.have.property('details')
      .that.includes('"Atlantis" is neither a country nor a region');
    expect(expectLeftTag(await forecast.execute({ city: 'Atlantis' }), 'InformationNotFound')).to.deep.equal({
      _tag: 'InformationNotFound',
      details: 'No place named "Atlantis" is known',
    });
    expect(source.asked).to.deep.equal([]);
  });

  it('names each field as its caller does, in the fields refused and in the reasons', async () => {
    const fieldNames = { legacyCoords: 'x-coords', legacyCity: 'x-city' };
    expect(expectLeftTag(await current.execute({ fieldNames }), 'MissingInput')).to.deep.equal({
      _tag: 'MissingInput',
      fields: ['lat', 'lon', 'city', 'x-coords', 'x-city'],
    });
    expect(
      expectLeftTag(await current.execute({ city: 'Paris', legacyCity: 'Paris', fieldNames }), 'InvalidInput'),
    ).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['city', 'x-city'],
      reason: 'give the place one way: lat and lon, city, x-coords or x-city',
    });
    expect(
      expectLeftTag(await current.execute({ legacyCoords: { lat: 0, lon: 200 }, fieldNames }), 'InvalidInput'),
    ).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['x-coords'],
      reason: 'x-coords must be "lat,lon", lat from -90 to 90 and lon from -180 to 180',
    });
    expect(expectLeftTag(await forecast.execute({ legacyCity: '   ', fieldNames }), 'InvalidInput')).to.deep.include({
      fields: ['x-city'],
    });
    expect(
      expectLeftTag(await current.execute({ lon: 1, fieldNames: { lat: 'latitude' } }), 'MissingInput'),
    ).to.deep.equal({
      _tag: 'MissingInput',
      fields: ['latitude'],
    });
    expect(source.asked).to.deep.equal([]);
  });

  it('turns the source’s outcomes into answers: stale passed on, its refusal as invalid input with its reason, outages as 29/30, off as 23', async () => {
    source.stale = true;
    expect(expectRight(await current.execute({ lat: 1, lon: 1 })).stale).to.equal(true);
    expect(
      expectLeftTag(await current.execute({ lat: 1, lon: 1, timezone: 'Antarctica/Troll' }), 'InvalidInput'),
    ).to.deep.equal({
      _tag: 'InvalidInput',
      fields: [],
      reason: 'the memory weather source refused the question: Invalid timezone',
    });
    source.failure = { kind: 'unavailable', reason: 'timeout' };
    expectLeftTag(await forecast.execute({ lat: 1, lon: 1 }), 'UpstreamTimeout');
    source.failure = { kind: 'unavailable', reason: 'failure' };
    expectLeftTag(await forecast.execute({ lat: 1, lon: 1 }), 'UpstreamUnavailable');
    source.failure = { kind: 'off' };
    expect(expectLeftTag(await current.execute({ lat: 1, lon: 1 }), 'EndpointDisabled')).to.deep.equal({
      _tag: 'EndpointDisabled',
      details: 'Weather is turned off on this server',
    });
  });

  it('describes every WMO weather code Open-Meteo uses, and no other', () => {
    expect(WEATHER_CODE_LIST).to.deep.equal([
      0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99,
    ]);
    expect(describeWeatherCode(0)).to.equal('clear sky');
    expect(describeWeatherCode(99)).to.equal('thunderstorm with heavy hail');
    for (const unknown of [4, 100, -1, 2.5, null]) expect(describeWeatherCode(unknown)).to.equal(null);
  });

  it('knows IANA time zone names as written, links among them, and refuses what only looks like one', () => {
    for (const name of [
      'Europe/Paris',
      'America/Argentina/Buenos_Aires',
      'Asia/Calcutta',
      'Etc/GMT+5',
      'UTC',
      'GMT',
      'US/Eastern',
    ])
      expect(isTimeZoneName(name), name).to.equal(true);
    for (const name of ['europe/paris', 'Mars/Olympus', '+01:00', 'Europe/', '/Paris', 'Europe//Paris', 'auto', ''])
      expect(isTimeZoneName(name), name).to.equal(false);
  });
});
