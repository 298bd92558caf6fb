import { expect } from 'chai';
import pino from 'pino';
import { MemoryWeatherSource } from '../../src/families/weather/adapters/memory-weather-source.js';
import { OpenMeteoWeatherSource } from '../../src/families/weather/adapters/open-meteo-weather-source.js';
import type { WeatherResult, WeatherSource } from '../../src/families/weather/domain/ports.js';
import {
  FORECAST_HOURS,
  type ObservedAir,
  type ObservedConditions,
  type ObservedForecast,
  type WeatherQuery,
} from '../../src/families/weather/domain/weather.js';
import {
  AIR_UNITS,
  BERLIN_AIR,
  BERLIN_FIRST_DAY,
  BERLIN_FIRST_HOUR,
  BERLIN_NOW,
  BERLIN_WORLD,
  IMPERIAL_CONDITION_UNITS,
  IMPERIAL_DAY_UNITS,
  IMPERIAL_HOUR_UNITS,
  METRIC_CONDITION_UNITS,
  METRIC_DAY_UNITS,
  METRIC_HOUR_UNITS,
  REFUSED_TIME_ZONE,
  startOpenMeteoFixture,
} from '../support/open-meteo-fixture.js';

/** Both adapters hold the same world: Berlin's weather, whatever the point, in the zones Open-Meteo knows. */
const adapters: { name: string; open: () => Promise<{ source: WeatherSource; close(): Promise<void> }> }[] = [
  { name: 'memory', open: async () => ({ source: new MemoryWeatherSource(BERLIN_WORLD), close: async () => {} }) },
  {
    name: 'Open-Meteo over HTTP',
    open: async () => {
      const fixture = await startOpenMeteoFixture();
      const source = new OpenMeteoWeatherSource(
        {
          baseUrl: fixture.url,
          airQualityUrl: fixture.url,
          deadlineMs: 1_000,
          currentTtlMs: 60_000,
          forecastTtlMs: 60_000,
          hourlyTtlMs: 60_000,
          airTtlMs: 60_000,
          maxEntries: 10,
          defaultBackoffMs: 1_000,
          failureTtlMs: 5_000,
          hostTtlMs: 60_000,
        },
        pino({ level: 'silent' }),
      );
      return { source, close: () => fixture.close() };
    },
  },
];

const BERLIN: WeatherQuery = { point: { lat: 52.52, lon: 13.41 }, units: 'metric', timezone: 'auto' };

const found = <A>(result: WeatherResult<A>): A => {
  expect(result.kind, JSON.stringify(result)).to.equal('found');
  return (result as Extract<WeatherResult<A>, { kind: 'found' }>).value;
};

for (const adapter of adapters) {
  describe(`contract: WeatherSource (${adapter.name})`, () => {
    let source: WeatherSource;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ source, close } = await adapter.open());
    });
    afterEach(async () => close());

    it('answers the conditions now, fresh, in the place’s own time zone and in metric units', async () => {
      const result = await source.current(BERLIN);
      expect(result).to.deep.equal({
        kind: 'found',
        value: {
          timezone: 'Europe/Berlin',
          elevation: 38,
          conditions: BERLIN_NOW,
          units: METRIC_CONDITION_UNITS,
        } satisfies ObservedConditions,
        stale: false,
      });
    });

    it('answers in imperial units and in the time zone asked for', async () => {
      const observed = found(await source.current({ ...BERLIN, units: 'imperial', timezone: 'Asia/Tokyo' }));
      expect(observed.timezone).to.equal('Asia/Tokyo');
      expect(observed.units).to.deep.equal(IMPERIAL_CONDITION_UNITS);
      expect(observed.conditions).to.include({ temperature: 39.6, windSpeed: 9.2, humidity: 81, pressure: 1018.4 });
    });

    it('answers a forecast of exactly the days asked, today first', async () => {
      for (const days of [1, 7, 16]) {
        const forecast: ObservedForecast = found(await source.forecast({ ...BERLIN, days }));
        expect(forecast.days, `${days} days`).to.have.length(days);
        expect(forecast.days[0]).to.deep.equal(BERLIN_FIRST_DAY);
        expect(forecast.units).to.deep.equal(METRIC_DAY_UNITS);
      }
      const sixteen = found(await source.forecast({ ...BERLIN, days: 16 }));
      expect(sixteen.days.map((day) => day.date).slice(0, 3)).to.deep.equal(['2026-11-23', '2026-11-24', '2026-11-25']);
      // A value the source does not have is null, not left out or made up.
      expect(sixteen.days[15]!.precipitationProbabilityMax).to.equal(null);
      const imperial = found(await source.forecast({ ...BERLIN, units: 'imperial', days: 2 }));
      expect(imperial.units).to.deep.equal(IMPERIAL_DAY_UNITS);
      expect(imperial.days[0]).to.include({ temperatureMax: 43, temperatureMin: 35.2, windSpeedMax: 10.7 });
    });

    it('answers the next 48 hours, the current one first, in the units asked', async () => {
      const hourly = found(await source.hourly(BERLIN));
      expect(hourly.timezone).to.equal('Europe/Berlin');
      expect(hourly.hours).to.have.length(FORECAST_HOURS);
      expect(hourly.hours[0]).to.deep.equal(BERLIN_FIRST_HOUR);
      expect(hourly.hours.map((hour) => hour.time).slice(0, 2)).to.deep.equal(['2026-11-23T10:00', '2026-11-23T11:00']);
      expect(hourly.hours[47]!.time).to.equal('2026-11-25T09:00');
      expect(hourly.units).to.deep.equal(METRIC_HOUR_UNITS);
      const imperial = found(await source.hourly({ ...BERLIN, units: 'imperial' }));
      expect(imperial.units).to.deep.equal(IMPERIAL_HOUR_UNITS);
      // Converted where a unit applies; the probability, direction, code and UV index are the same numbers.
      expect(imperial.hours[0]).to.deep.equal({
        ...BERLIN_FIRST_HOUR,
        temperature: 39.6,
        apparentTemperature: 33.1,
        windSpeed: 7.8,
        windGusts: 15.9,
      });
      expect(imperial.hours[14]!.precipitation).to.equal(0.016);
    });

    it('answers the air now, in the place’s own time zone or the one asked for', async () => {
      expect(await source.air({ point: BERLIN.point, timezone: 'auto' })).to.deep.equal({
        kind: 'found',
        value: { timezone: 'Europe/Berlin', elevation: 38, air: BERLIN_AIR, units: AIR_UNITS } satisfies ObservedAir,
        stale: false,
      });
      expect(found(await source.air({ point: BERLIN.point, timezone: 'UTC' })).timezone).to.equal('UTC');
    });

    it('refuses a time zone it does not know, saying why', async () => {
      const refused = await source.current({ ...BERLIN, timezone: REFUSED_TIME_ZONE });
      expect(refused.kind).to.equal('rejected');
      expect((refused as { reason: string }).reason).to.match(/timezone/i);
      expect((await source.forecast({ ...BERLIN, timezone: REFUSED_TIME_ZONE, days: 3 })).kind).to.equal('rejected');
      expect((await source.hourly({ ...BERLIN, timezone: REFUSED_TIME_ZONE })).kind).to.equal('rejected');
      expect((await source.air({ point: BERLIN.point, timezone: REFUSED_TIME_ZONE })).kind).to.equal('rejected');
    });
  });
}
