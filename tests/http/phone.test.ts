import { expect } from 'chai';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

interface Details {
  input: string;
  vanity: boolean;
  valid: boolean;
  possible: boolean;
  type: string | null;
  countryCallingCode: string;
  country: string | null;
  countryName: string | null;
  timeZones: string[];
  carrier: string | null;
  location: string | null;
  nationalNumber: string;
  extension?: string;
  formats: { e164: string; international: string; national: string; rfc3966: string };
}

/** A number as a user would send it, and what they should read back. */
interface Case {
  readonly number: string;
  readonly country?: string;
  readonly valid: boolean;
  readonly type: string | null;
  readonly region: string | null;
  readonly e164: string;
  readonly national: string;
}

const NUMBERS: Case[] = [
  {
    number: '+33 6 12 34 56 78',
    valid: true,
    type: 'MOBILE',
    region: 'FR',
    e164: '+33612345678',
    national: '06 12 34 56 78',
  },
  {
    number: '01 23 45 67 89',
    country: 'FR',
    valid: true,
    type: 'FIXED_LINE',
    region: 'FR',
    e164: '+33123456789',
    national: '01 23 45 67 89',
  },
  {
    number: '(201) 555-0123',
    country: 'US',
    valid: true,
    type: 'FIXED_LINE_OR_MOBILE',
    region: 'US',
    e164: '+12015550123',
    national: '(201) 555-0123',
  },
  {
    number: '+1 800 234 5678',
    valid: true,
    type: 'TOLL_FREE',
    region: 'US',
    e164: '+18002345678',
    national: '(800) 234-5678',
  },
  {
    number: '07400 123456',
    country: 'GB',
    valid: true,
    type: 'MOBILE',
    region: 'GB',
    e164: '+447400123456',
    national: '07400 123456',
  },
  {
    number: '+44 20 7946 0958',
    valid: true,
    type: 'FIXED_LINE',
    region: 'GB',
    e164: '+442079460958',
    national: '020 7946 0958',
  },
  {
    number: '0800 123 4567',
    country: 'GB',
    valid: true,
    type: 'TOLL_FREE',
    region: 'GB',
    e164: '+448001234567',
    national: '0800 123 4567',
  },
  {
    number: '090-1234-5678',
    country: 'JP',
    valid: true,
    type: 'MOBILE',
    region: 'JP',
    e164: '+819012345678',
    national: '090-1234-5678',
  },
  {
    number: '+81 3-1234-5678',
    valid: true,
    type: 'FIXED_LINE',
    region: 'JP',
    e164: '+81312345678',
    national: '03-1234-5678',
  },
  {
    number: '0120-123-456',
    country: 'JP',
    valid: true,
    type: 'TOLL_FREE',
    region: 'JP',
    e164: '+81120123456',
    national: '0120-123-456',
  },
  {
    number: '+49 30 123456',
    valid: true,
    type: 'FIXED_LINE',
    region: 'DE',
    e164: '+4930123456',
    national: '030 123456',
  },
  {
    number: '01512 3456789',
    country: 'DE',
    valid: true,
    type: 'MOBILE',
    region: 'DE',
    e164: '+4915123456789',
    national: '01512 3456789',
  },
  {
    number: '(11) 91234-5678',
    country: 'BR',
    valid: true,
    type: 'MOBILE',
    region: 'BR',
    e164: '+5511912345678',
    national: '(11) 91234-5678',
  },
  {
    number: '+55 11 3456-7890',
    valid: true,
    type: 'FIXED_LINE',
    region: 'BR',
    e164: '+551134567890',
    national: '(11) 3456-7890',
  },
  {
    number: '98765 43210',
    country: 'IN',
    valid: true,
    type: 'MOBILE',
    region: 'IN',
    e164: '+919876543210',
    national: '098765 43210',
  },
  {
    number: '1800 123 4567',
    country: 'IN',
    valid: true,
    type: 'TOLL_FREE',
    region: 'IN',
    e164: '+9118001234567',
    national: '1800 123 4567',
  },
  {
    number: '00 44 20 7946 0958',
    country: 'FR',
    valid: true,
    type: 'FIXED_LINE',
    region: 'GB',
    e164: '+442079460958',
    national: '020 7946 0958',
  },
  {
    number: '+800 1234 5678',
    valid: true,
    type: 'TOLL_FREE',
    region: null,
    e164: '+80012345678',
    national: '1234 5678',
  },
  {
    number: '+883 510 012345',
    valid: true,
    type: 'VOIP',
    region: null,
    e164: '+883510012345',
    national: '510 012 345',
  },
  { number: '+882 49 123456', valid: true, type: 'MOBILE', region: null, e164: '+88249123456', national: '49 123456' },
  { number: '+882 1234 5678', valid: false, type: null, region: null, e164: '+88212345678', national: '12345678' },
  { number: '12', country: 'FR', valid: false, type: null, region: 'FR', e164: '+3312', national: '12' },
];

describe('http: phone details (libphonenumber-js, full metadata)', () => {
  let server: TestServer;
  let token: string;
  const get = (query: string) => server.get(`/api/phone/details?${query}`, { Authorization: `Bearer ${token}` });
  const details = async (query: string): Promise<Details> => {
    const response = await get(query);
    expect(response.status, query).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    return (await response.json()) as Details;
  };
  const queryOf = (number: string, country?: string) =>
    new URLSearchParams(country === undefined ? { number } : { number, country }).toString();

  before(async () => {
    server = await startServer();
    token = await server.tokenFor(['Phone::Details']);
  });
  after(() => server.close());

  it('answers every field for a French mobile given internationally', async () => {
    expect(await details('number=%2B33%206%2012%2034%2056%2078')).to.deep.equal({
      input: '+33 6 12 34 56 78',
      vanity: false,
      valid: true,
      possible: true,
      type: 'MOBILE',
      countryCallingCode: '33',
      country: 'FR',
      countryName: 'France',
      timeZones: ['Europe/Paris'],
      carrier: 'SFR',
      location: null,
      nationalNumber: '612345678',
      formats: {
        e164: '+33612345678',
        international: '+33 6 12 34 56 78',
        national: '06 12 34 56 78',
        rfc3966: 'tel:+33612345678',
      },
    });
  });

  it('reads numbers of several countries and kinds, national with their country and international with +', async () => {
    for (const { number, country, valid, type, region, e164, national } of NUMBERS) {
      const body = await details(queryOf(number, country));
      expect(body, number).to.deep.include({ input: number, valid, type, country: region });
      expect(body.formats, number).to.deep.include({ e164, national, rfc3966: `tel:${e164}` });
    }
  });

  it('names the region in English, and gives none for a non-geographic number', async () => {
    expect(await details(queryOf('090-1234-5678', 'JP'))).to.deep.include({
      country: 'JP',
      countryName: 'Japan',
      countryCallingCode: '81',
    });
    expect(await details(queryOf('+800 1234 5678'))).to.deep.include({
      country: null,
      countryName: null,
      countryCallingCode: '800',
    });
  });

  it('gives the number’s own time zones, not its country’s, and none for a number of no country', async () => {
    expect((await details(queryOf('06 12 34 56 78', 'FR'))).timeZones).to.deep.equal(['Europe/Paris']);
    expect((await details(queryOf('090-1234-5678', 'JP'))).timeZones).to.deep.equal(['Asia/Tokyo']);
    expect((await details(queryOf('+1 416 979 2329'))).timeZones).to.deep.equal(['America/Toronto']);
    expect((await details(queryOf('+1 212 555 0123'))).timeZones).to.deep.equal(['America/New_York']);
    expect((await details(queryOf('+1 650 253 0000'))).timeZones).to.deep.equal(['America/Los_Angeles']);
    // A toll-free number reaches the whole country: its zones, and none of the plan's other countries'.
    const tollFree = (await details(queryOf('+1 800 234 5678'))).timeZones;
    expect(tollFree).to.include.members([
      'America/New_York',
      'America/Chicago',
      'America/Los_Angeles',
      'Pacific/Honolulu',
    ]);
    expect(tollFree).not.to.include.members(['America/Toronto', 'Atlantic/Bermuda', 'Pacific/Guam']);
    for (const number of ['+882 49 123456', '+800 1234 5678', '+883 510 012345', '+1 555 0123']) {
      expect(await details(queryOf(number)), number).to.deep.include({ country: null, timeZones: [] });
    }
  });

  it('names time zones by their current IANA names, never the old ones ICU keeps', async () => {
    expect((await details(queryOf('+91 22 2202 6060'))).timeZones).to.deep.equal(['Asia/Kolkata']);
    expect((await details(queryOf('+380 44 123 4567'))).timeZones).to.deep.equal(['Europe/Kyiv']);
    expect((await details(queryOf('+84 28 3822 1234'))).timeZones).to.deep.equal(['Asia/Ho_Chi_Minh']);
    expect((await details(queryOf('+977 1 4123456'))).timeZones).to.deep.equal(['Asia/Kathmandu']);
    // An invalid number answers its country's zones, renamed the same way.
    expect(await details(queryOf('+380 44 12'))).to.deep.include({
      valid: false,
      timeZones: ['Europe/Kyiv', 'Europe/Simferopol'],
    });
    // A zone IANA keeps as a link to another country's stays the country's own.
    expect((await details(queryOf('+31 20 123 4567'))).timeZones).to.deep.equal(['Europe/Amsterdam']);
  });

  it('names the place of a geographic number and the original carrier of a mobile range, in English by default', async () => {
    expect(await details(queryOf('+1 416 979 2329'))).to.deep.include({ location: 'Toronto, ON', carrier: null });
    expect(await details(queryOf('+91 22 2202 6060'))).to.deep.include({ location: 'Mumbai', carrier: null });
    expect(await details(queryOf('98765 43210', 'IN'))).to.deep.include({ location: null, carrier: 'Airtel' });
    expect(await details(queryOf('+86 199 1234 5678'))).to.deep.include({ carrier: 'China Telecom' });
    // A toll-free number belongs to no place and no carrier; an unassigned one to neither.
    expect(await details(queryOf('+1 800 234 5678'))).to.deep.include({ location: null, carrier: null });
    expect(await details(queryOf('+33 1 2'))).to.deep.include({ location: null, carrier: null });
  });

  it('names them in the language asked where the data has it, else in English', async () => {
    expect((await details(`${queryOf('+41 43 123 45 67')}&lang=de`)).location).to.equal('Zürich');
    expect((await details(`${queryOf('+41 43 123 45 67')}&lang=it`)).location).to.equal('Zurigo');
    expect((await details(`${queryOf('+41 43 123 45 67')}&lang=en`)).location).to.equal('Zurich');
    expect((await details(`${queryOf('+86 199 1234 5678')}&lang=zh`)).carrier).to.equal('中国电信');
    // No carrier names in German: English.
    expect((await details(`${queryOf('+86 199 1234 5678')}&lang=de`)).carrier).to.equal('China Telecom');
    // Hebrew is `iw` in the data; Swahili it has none of.
    expect((await details(`${queryOf('+41 43 123 45 67')}&lang=sw`)).location).to.equal('Zurich');
    for (const bad of ['xx', 'DE', 'deu', 'zh-Hant', '']) {
      const body = await expectError(await get(`${queryOf('+41 43 123 45 67')}&lang=${bad}`), 400, 7);
      expect(body.details, bad).to.include('lang');
    }
  });

  it('reads a vanity number’s letters as the keypad’s digits, and says so', async () => {
    const flowers = await details(queryOf('1-800-FLOWERS', 'US'));
    expect(flowers).to.deep.include({ input: '1-800-FLOWERS', vanity: true, valid: true, type: 'TOLL_FREE' });
    expect(flowers.formats).to.deep.include({ e164: '+18003569377', national: '(800) 356-9377' });
    expect(await details(queryOf('+1 800 GOT JUNK'))).to.deep.include({ vanity: true, nationalNumber: '8004685865' });
    expect((await details(queryOf('+1 212 555 0123'))).vanity).to.equal(false);
    const twoLetters = await expectError(await get(queryOf('555-12AB', 'US')), 400, 7);
    expect(twoLetters.details).to.match(/^number has letters but is no vanity number/);
  });

  it('recognises a region’s short and emergency numbers as such, with their region, instead of inventing +1 911', async () => {
    for (const [number, country, countryName] of [
      ['911', 'US', 'United States'],
      ['112', 'FR', 'France'],
      ['112', 'DE', 'Germany'],
      ['999', 'GB', 'United Kingdom'],
      ['000', 'AU', 'Australia'],
    ]) {
      const body = (await details(queryOf(number!, country))) as unknown as Record<string, unknown>;
      expect(body, `${number} in ${country}`).to.deep.include({
        input: number,
        vanity: false,
        valid: true,
        country,
        countryName,
        shortNumber: { digits: number, emergency: true, cost: 'TOLL_FREE', carrierSpecific: false },
      });
      expect(body).not.to.have.any.keys('formats', 'countryCallingCode', 'nationalNumber');
    }
    expect((await details(queryOf('112', 'FR'))).timeZones).to.deep.equal(['Europe/Paris']);
    // Not an emergency number, but one of the plan's: the carrier's customer service in the United States.
    expect(await details(queryOf('611', 'US'))).to.deep.include({
      shortNumber: { digits: '611', emergency: false, cost: 'TOLL_FREE', carrierSpecific: true },
    });
    // A short number is dialled within its region: with a +, or where the region has no such number, it is none.
    expect(await details(queryOf('+1 911'))).to.deep.include({ valid: false, country: null });
    expect(await details(queryOf('123', 'US'))).to.deep.include({ valid: false, possible: false });
  });

  it('keeps an extension apart and carries it in every format', async () => {
    const body = await details(queryOf('+1 212 555 0123 ext. 42'));
    expect(body).to.deep.include({ nationalNumber: '2125550123', extension: '42' });
    expect(body.formats).to.deep.equal({
      e164: '+12125550123',
      international: '+1 212 555 0123 ext. 42',
      national: '(212) 555-0123 ext. 42',
      rfc3966: 'tel:+12125550123;ext=42',
    });
    expect(await details(queryOf('07400 123456 x5', 'GB'))).to.deep.include({ extension: '5' });
    expect(await details(queryOf('+33 6 12 34 56 78'))).not.to.have.property('extension');
  });

  it("takes the country in either case; beside a + number it must be the number's own, never ignored (400/7)", async () => {
    expect((await details(queryOf('01 23 45 67 89', 'fr'))).formats.e164).to.equal('+33123456789');
    expect(await details(queryOf('+44 20 7946 0958', 'gb'))).to.deep.include({
      country: 'GB',
      nationalNumber: '2079460958',
    });
    const other = await expectError(await get(queryOf('+44 20 7946 0958', 'JP')), 400, 7);
    expect(other.details).to.equal(
      "country JP is not the number's: +44 20 7946 0958 is GB's by its calling code; leave country out for a number with +",
    );
    expect((await expectError(await get(queryOf('+800 1234 5678', 'FR')), 400, 7)).details).to.match(
      /^country FR is not the number's: \+800 1234 5678 is no country's/,
    );
  });

  it('answers a parseable number that no plan assigns with 200 and valid: false', async () => {
    expect(await details(queryOf('+33 1 2'))).to.deep.include({
      valid: false,
      possible: false,
      type: null,
      country: 'FR',
    });
    expect(await details(queryOf('+1 555 0123'))).to.deep.include({
      valid: false,
      country: null,
      countryCallingCode: '1',
    });
  });

  it('answers 400/6 without a number, and without a country for a number without +', async () => {
    expect((await expectError(await get(''), 400, 6)).details).to.equal('Missing: number');
    expect((await expectError(await get('country=FR'), 400, 6)).details).to.equal('Missing: number');
    expect((await expectError(await get(queryOf('06 12 34 56 78')), 400, 6)).details).to.equal('Missing: country');
  });

  it('answers 400/7 for text that is not a phone number, naming the field', async () => {
    const refused = [
      '',
      'call me',
      'tel:+33612345678',
      '33+612345678',
      '<script>',
      '1'.repeat(65),
      '０６１２３４５６７８',
    ];
    for (const number of refused) {
      const body = await expectError(await get(queryOf(number, 'FR')), 400, 7);
      expect(body.details, number).to.match(/^number must be a phone number of at most 64 characters/);
    }
    // An extension's marker without its digits is no vanity number either.
    const cut = await expectError(await get(queryOf('+33 6 12 34 56 78 ext.', 'FR')), 400, 7);
    expect(cut.details).to.match(/^number has letters but is no vanity number/);
  });

  it('answers 400/7 for an unencoded + (which arrives as a space), saying to send %2B', async () => {
    const body = await expectError(await get('number=+33612345678'), 400, 7);
    expect(body.details).to.include('%2B');
  });

  it('answers 400/7 for what the plans cannot read, saying why', async () => {
    const cases: [string, string | undefined, string][] = [
      ['+999 123456', undefined, 'number starts with a calling code that no country or service uses'],
      ['00 999 12345678', 'FR', 'number starts with a calling code that no country or service uses'],
      ['1', 'FR', 'number is too short to be a phone number'],
      [`+33 ${'1'.repeat(20)}`, undefined, 'number is too long to be a phone number'],
      ['+33 12345678901234', undefined, 'number is too long to be a phone number'],
      ['01 23 45 67 89 01 23 4', 'FR', 'number is too long to be a phone number'],
      ['()', 'FR', 'number is not a phone number'],
    ];
    for (const [number, country, reason] of cases) {
      expect((await expectError(await get(queryOf(number, country)), 400, 7)).details, number).to.equal(reason);
    }
  });

  it('answers 400/7 for a country that is not an alpha-2 code or has no numbering plan, even beside a + number', async () => {
    expect((await expectError(await get(queryOf('06 12 34 56 78', 'FRA')), 400, 7)).details).to.match(
      /^country must be an ISO 3166-1 alpha-2 country code/,
    );
    expect((await expectError(await get(queryOf('06 12 34 56 78', '33')), 400, 7)).details).to.match(
      /^country must be/,
    );
    expect((await expectError(await get(queryOf('06 12 34 56 78', 'ZZ')), 400, 7)).details).to.equal(
      'country ZZ has no numbering plan',
    );
    expect((await expectError(await get(queryOf('+33612345678', 'zz')), 400, 7)).details).to.equal(
      'country zz has no numbering plan',
    );
  });

  it('answers 400/7 for a repeated parameter', async () => {
    await expectError(await get('number=%2B33612345678&number=%2B33612345679'), 400, 7);
    await expectError(await get('number=0612345678&country=FR&country=DE'), 400, 7);
  });

  it('needs Phone::Details', async () => {
    await expectError(await server.get('/api/phone/details?number=%2B33612345678'), 401, 3);
    const other = await server.tokenFor(['Cryptography::*']);
    await expectError(
      await server.get('/api/phone/details?number=%2B33612345678', { Authorization: `Bearer ${other}` }),
      403,
      1,
    );
  });
});

describe('http: phone details on first use', () => {
  it('answers requests that arrive together while the numbering plans load', async () => {
    const server = await startServer();
    try {
      const token = await server.tokenFor(['Phone::*']);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          server.get('/api/phone/details?number=%2B81%203-1234-5678', { Authorization: `Bearer ${token}` }),
        ),
      );
      for (const response of responses) {
        expect(response.status).to.equal(200);
        expect(((await response.json()) as Details).formats.e164).to.equal('+81312345678');
      }
    } finally {
      await server.close();
    }
  });
});
