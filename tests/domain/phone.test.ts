import { expect } from 'chai';
import { MemoryPhoneNumbering } from '../../src/families/phone/adapters/memory-phone-numbering.js';
import { COUNTRY_CODE, GetPhoneDetails, PHONE_INPUT } from '../../src/families/phone/domain/phone-details.js';
import type { PhoneNumberDetails } from '../../src/families/phone/domain/phone-number.js';
import type { PhoneNumbering, PhoneReading } from '../../src/families/phone/domain/ports.js';
import { expectLeftTag, expectRight } from '../support/either.js';

const LONDON: PhoneNumberDetails = {
  valid: true,
  possible: true,
  type: 'FIXED_LINE',
  countryCallingCode: '44',
  country: 'GB',
  countryName: 'United Kingdom',
  timeZones: ['Europe/London'],
  carrier: null,
  location: 'London',
  nationalNumber: '2079460958',
  formats: {
    e164: '+442079460958',
    international: '+44 20 7946 0958',
    national: '020 7946 0958',
    rfc3966: 'tel:+442079460958',
  },
};

/** Plans that answer every question the same way, recording the questions. */
function answering(reading: PhoneReading): PhoneNumbering & { asked: [string, string | undefined][] } {
  const asked: [string, string | undefined][] = [];
  return { asked, read: async (number, region) => (asked.push([number, region]), reading) };
}

describe('domain: phone details', () => {
  const getDetails = new GetPhoneDetails(new MemoryPhoneNumbering([LONDON]));

  it('gives the plans’ details after the input as it was sent', async () => {
    expect(expectRight(await getDetails.execute({ number: '+44 20 7946 0958' }))).to.deep.equal({
      input: '+44 20 7946 0958',
      vanity: false,
      ...LONDON,
    });
    expect(expectRight(await getDetails.execute({ number: '020 7946 0958', country: 'GB' }))).to.deep.equal({
      input: '020 7946 0958',
      vanity: false,
      ...LONDON,
    });
  });

  it('takes the country in either case and hands it on in upper case', async () => {
    const plans = answering({ kind: 'read', details: LONDON });
    expectRight(await new GetPhoneDetails(plans).execute({ number: '020 7946 0958', country: 'gb' }));
    expect(plans.asked).to.deep.equal([['020 7946 0958', 'GB']]);
  });

  it('needs a country for a number without +, and still checks one given with a + number', async () => {
    expect(expectLeftTag(await getDetails.execute({ number: '020 7946 0958' }), 'MissingInput')).to.deep.equal({
      _tag: 'MissingInput',
      fields: ['country'],
    });
    expect(
      expectLeftTag(await getDetails.execute({ number: '+44 20 7946 0958', country: 'ZZ' }), 'InvalidInput'),
    ).to.deep.include({ fields: ['country'] });
    expect(
      expectLeftTag(await getDetails.execute({ number: '+44 20 7946 0958', country: 'GBR' }), 'InvalidInput'),
    ).to.deep.include({ fields: ['country'] });
  });

  it('refuses text that is not a phone number before asking the plans', async () => {
    const plans = answering({ kind: 'read', details: LONDON });
    for (const number of [
      '',
      ' 44 20 7946 0958',
      '+44 20 7946 0958 ext. ',
      'call me',
      '555-12AB',
      '0612345678 ext',
      '+44+20',
      '1'.repeat(65),
    ]) {
      expect(
        expectLeftTag(await new GetPhoneDetails(plans).execute({ number, country: 'GB' }), 'InvalidInput'),
        number,
      ).to.deep.include({ fields: ['number'] });
    }
    expect(plans.asked).to.deep.equal([]);
  });

  it('turns what the plans cannot read into an invalid number, saying why', async () => {
    const cases: [PhoneReading, string][] = [
      [{ kind: 'unreadable', reason: 'not-a-number' }, 'number is not a phone number'],
      [
        { kind: 'unreadable', reason: 'unknown-calling-code' },
        'number starts with a calling code that no country or service uses',
      ],
      [{ kind: 'unreadable', reason: 'too-short' }, 'number is too short to be a phone number'],
      [{ kind: 'unreadable', reason: 'too-long' }, 'number is too long to be a phone number'],
    ];
    for (const [reading, details] of cases) {
      expect(
        expectLeftTag(await new GetPhoneDetails(answering(reading)).execute({ number: '+1 234' }), 'InvalidInput'),
      ).to.deep.equal({
        _tag: 'InvalidInput',
        fields: ['number'],
        reason: details,
      });
    }
    expect(
      expectLeftTag(
        await new GetPhoneDetails(answering({ kind: 'unknown-region' })).execute({ number: '123', country: 'xx' }),
        'InvalidInput',
      ),
    ).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['country'],
      reason: 'country xx has no numbering plan',
    });
  });

  it('reads the letters of a vanity number as a keypad’s digits, and says so', async () => {
    const plans = answering({ kind: 'read', details: LONDON });
    const answer = expectRight(
      await new GetPhoneDetails(plans).execute({ number: '1-800-FLOWERS x12', country: 'us' }),
    );
    expect(answer).to.deep.include({ input: '1-800-FLOWERS x12', vanity: true });
    // ABC 2, DEF 3, GHI 4, JKL 5, MNO 6, PQRS 7, TUV 8, WXYZ 9; the extension stays as it was.
    expect(plans.asked).to.deep.equal([['1-800-3569377 x12', 'US']]);
    expectRight(await new GetPhoneDetails(plans).execute({ number: '+1 (555) AbC-dEfG' }));
    expect(plans.asked[1]).to.deep.equal(['+1 (555) 222-3334', undefined]);
  });

  it('answers a short number of the region as one, valid, with no international form', async () => {
    const emergency = {
      country: 'US',
      countryName: 'United States',
      timeZones: ['America/New_York'],
      shortNumber: { digits: '911', emergency: true, cost: 'TOLL_FREE', carrierSpecific: false },
    } as const;
    const plans = new GetPhoneDetails(new MemoryPhoneNumbering([LONDON], [], [emergency]));
    expect(expectRight(await plans.execute({ number: '911', country: 'us' }))).to.deep.equal({
      input: '911',
      vanity: false,
      valid: true,
      ...emergency,
    });
  });

  it('hands on the language asked, and refuses one that is no ISO 639-1 code', async () => {
    const plans = answering({ kind: 'read', details: LONDON });
    const asked: (string | undefined)[] = [];
    const recording: PhoneNumbering = {
      read: async (number, region, language) => (asked.push(language), plans.read(number, region)),
    };
    expectRight(await new GetPhoneDetails(recording).execute({ number: '+44 20 7946 0958', lang: 'de' }));
    expect(asked).to.deep.equal(['de']);
    for (const lang of ['xx', 'DE', 'deu', 'zh-Hant', '']) {
      expect(
        expectLeftTag(
          await new GetPhoneDetails(recording).execute({ number: '+44 20 7946 0958', lang }),
          'InvalidInput',
        ),
        lang,
      ).to.deep.include({ fields: ['lang'] });
    }
  });

  it('accepts numbers and country codes of the documented shapes only', () => {
    const numbers = [
      '+33 6 12 34 56 78',
      '(201) 555-0123',
      '030/123456',
      '06.12.34.56.78',
      '+1 212 555 0123 ext. 42',
      '+1 212 555 0123 EXT 42',
      '+12125550123x42',
      '+1 212 555 0123 #42',
      '+44 7400 123456;ext=5',
      '1-800-FLOWERS',
      '1'.repeat(64),
    ];
    for (const ok of numbers) expect(PHONE_INPUT.test(ok), ok).to.equal(true);
    for (const bad of ['', ' 33612345678', '+', '33+612', 'tel:+33612345678', '06 12\t34', '０６１２', '1'.repeat(65)])
      expect(PHONE_INPUT.test(bad), bad).to.equal(false);
    for (const ok of ['FR', 'fr', 'Gb']) expect(COUNTRY_CODE.test(ok), ok).to.equal(true);
    for (const bad of ['', 'F', 'FRA', 'F1', '33']) expect(COUNTRY_CODE.test(bad), bad).to.equal(false);
  });
});
