import { expect } from 'chai';
import pino from 'pino';
import { OpenMeteoWeatherSource } from '../../src/families/weather/adapters/open-meteo-weather-source.js';
import type { WeatherQuery } from '../../src/families/weather/domain/weather.js';
import { startFixtureServer, type FixtureServer, type Recorded } from '../support/fixture-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { openMeteoAnswer } from '../support/open-meteo-fixture.js';

const MINUTE = 60_000;
const BERLIN: WeatherQuery = { point: { lat: 52.52, lon: 13.41 }, units: 'metric', timezone: 'auto' };

/** Open-Meteo as the fixture plays it, but for the paths `odd` answers otherwise. */
async function openMeteoWith(
  odd: (path: string, answer: Recorded | undefined) => Recorded | undefined,
): Promise<FixtureServer> {
  return startFixtureServer({ recordings: (path) => odd(path, openMeteoAnswer(path)) });
}

describe('adapter: Open-Meteo over HTTP (against a loopback fixture)', () => {
  let fixture: FixtureServer;
  let clock: ManualClock;
  let source: OpenMeteoWeatherSource;
  const open = (airQualityUrl?: string) =>
    new OpenMeteoWeatherSource(
      {
        baseUrl: `${fixture.url}/`,
        airQualityUrl: airQualityUrl ?? `${fixture.url}/`,
        deadlineMs: 1_000,
        currentTtlMs: 10 * MINUTE,
        forecastTtlMs: 60 * MINUTE,
        hourlyTtlMs: 15 * MINUTE,
        airTtlMs: 20 * MINUTE,
        maxEntries: 100,
        defaultBackoffMs: MINUTE,
        failureTtlMs: 0,
        hostTtlMs: MINUTE,
      },
      pino({ level: 'silent' }),
      { clock },
    );

  beforeEach(async () => {
    fixture = await openMeteoWith((_, answer) => answer);
    clock = new ManualClock();
    source = open();
  });
  afterEach(() => fixture.close());

  it('asks /forecast and /air-quality for the variables, units and time zone of the question, one path per question', async () => {
    await source.current({ ...BERLIN, timezone: 'America/New_York' });
    await source.forecast({ ...BERLIN, units: 'imperial', days: 3 });
    await source.hourly({ ...BERLIN, units: 'imperial' });
    await source.air({ point: BERLIN.point, timezone: 'Europe/Paris' });
    expect(fixture.calls).to.deep.equal([
      '/forecast?latitude=52.52&longitude=13.41&temperature_unit=celsius&wind_speed_unit=kmh&precipitation_unit=mm&timezone=America%2FNew_York' +
        '&current=temperature_2m,apparent_temperature,relative_humidity_2m,precipitation,cloud_cover,pressure_msl,wind_speed_10m,wind_direction_10m,wind_gusts_10m,uv_index,is_day,weather_code',
      '/forecast?latitude=52.52&longitude=13.41&temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch&timezone=auto' +
        '&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max,wind_speed_10m_max,sunrise,sunset&forecast_days=3',
      '/forecast?latitude=52.52&longitude=13.41&temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch&timezone=auto' +
        '&hourly=temperature_2m,apparent_temperature,precipitation,precipitation_probability,wind_speed_10m,wind_direction_10m,wind_gusts_10m,weather_code,uv_index&forecast_hours=48',
      '/air-quality?latitude=52.52&longitude=13.41&timezone=Europe%2FParis' +
        '&current=pm2_5,pm10,ozone,nitrogen_dioxide,european_aqi,us_aqi',
    ]);
  });

  it('asks the air-quality API at its own address, and answers off for the air alone when it is turned off', async () => {
    const airQuality = await openMeteoWith((_, answer) => answer);
    try {
      source = open(airQuality.url);
      await source.air({ point: BERLIN.point, timezone: 'auto' });
      await source.current(BERLIN);
      expect(airQuality.calls.map((call) => new URL(call, airQuality.url).pathname)).to.deep.equal(['/air-quality']);
      expect(fixture.calls.map((call) => new URL(call, fixture.url).pathname)).to.deep.equal(['/forecast']);
    } finally {
      await airQuality.close();
    }
    source = open('off');
    expect(await source.air({ point: BERLIN.point, timezone: 'auto' })).to.deep.equal({ kind: 'off' });
    expect(await source.hourly(BERLIN)).to.include({ kind: 'found' });
  });

  it('keeps an hourly forecast for hourlyTtlMs and the air for airTtlMs', async () => {
    await source.hourly(BERLIN);
    await source.air({ point: BERLIN.point, timezone: 'auto' });
    clock.advance(15 * MINUTE - 1);
    await source.hourly(BERLIN);
    await source.air({ point: BERLIN.point, timezone: 'auto' });
    expect(fixture.calls).to.have.length(2);
    clock.advance(1);
    await source.hourly(BERLIN);
    await source.air({ point: BERLIN.point, timezone: 'auto' });
    expect(fixture.calls).to.have.length(3);
    clock.advance(5 * MINUTE);
    await source.air({ point: BERLIN.point, timezone: 'auto' });
    expect(fixture.calls).to.have.length(4);
    expect(fixture.calls.map((call) => new URL(call, fixture.url).pathname)).to.deep.equal([
      '/forecast',
      '/air-quality',
      '/forecast',
      '/air-quality',
    ]);
  });

  it('keeps the conditions now for currentTtlMs and a forecast for forecastTtlMs, then revalidates', async () => {
    await source.current(BERLIN);
    await source.forecast({ ...BERLIN, days: 7 });
    clock.advance(10 * MINUTE - 1);
    await source.current(BERLIN);
    expect(fixture.calls).to.have.length(2);
    clock.advance(1);
    expect(await source.current(BERLIN)).to.include({ kind: 'found', stale: false });
    await source.forecast({ ...BERLIN, days: 7 });
    expect(fixture.calls).to.have.length(3);
    expect(fixture.notModified).to.equal(1);
    clock.advance(50 * MINUTE);
    await source.forecast({ ...BERLIN, days: 7 });
    expect(fixture.calls).to.have.length(4);
    // Another number of days is another question.
    await source.forecast({ ...BERLIN, days: 6 });
    expect(fixture.calls).to.have.length(5);
  });

  it('takes an answer of the wrong shape, or a forecast of other than the days or hours asked, as Open-Meteo failing', async () => {
    await fixture.close();
    fixture = await openMeteoWith((path, answer) => {
      const body = answer?.body as Record<string, Record<string, unknown[]>>;
      if (path.includes('latitude=1&'))
        return { body: { ...body, current: { ...body.current, temperature_2m: '4.2' } } };
      if (path.includes('latitude=2&'))
        return { body: { ...body, daily: { ...body.daily, sunset: body.daily!.sunset!.slice(1) } } };
      if (path.includes('latitude=3&')) return { body: { ...body, current_units: undefined } };
      if (path.includes('latitude=4&'))
        return { body: { ...body, hourly: { ...body.hourly, uv_index: body.hourly!.uv_index!.slice(1) } } };
      if (path.includes('latitude=5&')) return { body: { ...body, current: { ...body.current, us_aqi: 'good' } } };
      return answer;
    });
    source = open();
    expect(await source.current({ ...BERLIN, point: { lat: 1, lon: 0 } })).to.deep.equal({
      kind: 'unavailable',
      reason: 'failure',
    });
    expect(await source.forecast({ ...BERLIN, point: { lat: 2, lon: 0 }, days: 4 })).to.deep.equal({
      kind: 'unavailable',
      reason: 'failure',
    });
    expect(await source.current({ ...BERLIN, point: { lat: 3, lon: 0 } })).to.deep.equal({
      kind: 'unavailable',
      reason: 'failure',
    });
    expect(await source.hourly({ ...BERLIN, point: { lat: 4, lon: 0 } })).to.deep.equal({
      kind: 'unavailable',
      reason: 'failure',
    });
    expect(await source.air({ point: { lat: 5, lon: 0 }, timezone: 'auto' })).to.deep.equal({
      kind: 'unavailable',
      reason: 'failure',
    });
  });

  it('passes on the reason of a 400; another 4xx is about us, not the question', async () => {
    await fixture.close();
    fixture = await openMeteoWith((path, answer) => {
      if (path.includes('latitude=1&')) return { status: 400, body: { error: true, reason: 'x'.repeat(400) } };
      if (path.includes('latitude=2&')) return { status: 400, body: 'Bad Request' };
      if (path.includes('latitude=3&')) return { status: 403, body: { error: true, reason: 'Forbidden' } };
      return answer;
    });
    source = open();
    expect(await source.current({ ...BERLIN, point: { lat: 1, lon: 0 } })).to.deep.equal({
      kind: 'rejected',
      reason: 'x'.repeat(300),
    });
    expect(await source.current({ ...BERLIN, point: { lat: 2, lon: 0 } })).to.deep.equal({
      kind: 'rejected',
      reason: 'no reason given',
    });
    expect(await source.current({ ...BERLIN, point: { lat: 3, lon: 0 } })).to.deep.equal({
      kind: 'unavailable',
      reason: 'failure',
    });
    expect(await source.hourly({ ...BERLIN, point: { lat: 1, lon: 0 } })).to.include({ kind: 'rejected' });
    expect(await source.air({ point: { lat: 1, lon: 0 }, timezone: 'auto' })).to.include({ kind: 'rejected' });
    expect(await source.air({ point: { lat: 3, lon: 0 }, timezone: 'auto' })).to.include({ kind: 'unavailable' });
  });

  it('serves the last answer as stale while Open-Meteo fails', async () => {
    await source.current(BERLIN);
    clock.advance(10 * MINUTE);
    fixture.behaviour = 'error';
    expect(await source.current(BERLIN)).to.include({ kind: 'found', stale: true });
    fixture.behaviour = 'slow';
    fixture.slowMs = 2_000;
    expect(await source.current({ ...BERLIN, units: 'imperial' })).to.deep.equal({
      kind: 'unavailable',
      reason: 'timeout',
    });
  });
});
