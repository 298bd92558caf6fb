import { expect } from 'chai';
import { getCountries, getExampleNumber, isPossiblePhoneNumber, isValidPhoneNumber } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { LibphonenumberNumbering } from '../../src/adapters/libphonenumber/libphonenumber-numbering.js';
import { MemoryPhoneNumbering } from '../../src/adapters/libphonenumber/memory-phone-numbering.js';
import type { PhoneNumberDetails, PhoneNumbering } from '../../src/domain/phone/phone-numbering.js';

/** What the full numbering plans say about these numbers; the memory adapter is seeded with exactly this. */
const FRENCH_MOBILE: PhoneNumberDetails = {
  valid: true,
  possible: true,
  type: 'MOBILE',
  countryCallingCode: '33',
  country: 'FR',
  countryName: 'France',
  nationalNumber: '612345678',
  formats: { e164: '+33612345678', international: '+33 6 12 34 56 78', national: '06 12 34 56 78', rfc3966: 'tel:+33612345678' },
};
const NEW_YORK_WITH_EXTENSION: PhoneNumberDetails = {
  valid: true,
  possible: true,
  type: 'FIXED_LINE_OR_MOBILE',
  countryCallingCode: '1',
  country: 'US',
  countryName: 'United States',
  nationalNumber: '2125550123',
  extension: '42',
  formats: { e164: '+12125550123', international: '+1 212 555 0123 ext. 42', national: '(212) 555-0123 ext. 42', rfc3966: 'tel:+12125550123;ext=42' },
};
const INTERNATIONAL_FREEPHONE: PhoneNumberDetails = {
  valid: true,
  possible: true,
  type: 'TOLL_FREE',
  countryCallingCode: '800',
  country: null,
  countryName: null,
  nationalNumber: '12345678',
  formats: { e164: '+80012345678', international: '+800 1234 5678', national: '1234 5678', rfc3966: 'tel:+80012345678' },
};

const adapters: { name: string; open: () => PhoneNumbering }[] = [
  { name: 'memory', open: () => new MemoryPhoneNumbering([FRENCH_MOBILE, NEW_YORK_WITH_EXTENSION, INTERNATIONAL_FREEPHONE]) },
  { name: 'libphonenumber-js (full metadata)', open: () => new LibphonenumberNumbering() },
];

for (const adapter of adapters) {
  describe(`contract: PhoneNumbering (${adapter.name})`, () => {
    let numbering: PhoneNumbering;
    beforeEach(() => {
      numbering = adapter.open();
    });

    it('reads a number given internationally, whatever its punctuation', async () => {
      expect(await numbering.read('+33 6 12 34 56 78', undefined)).to.deep.equal({ kind: 'read', details: FRENCH_MOBILE });
      expect(await numbering.read('+33 (6) 12-34-56.78', undefined)).to.deep.equal({ kind: 'read', details: FRENCH_MOBILE });
    });

    it('reads the same number as dialled in its country, and ignores a known region for an international one', async () => {
      expect(await numbering.read('06 12 34 56 78', 'FR')).to.deep.equal({ kind: 'read', details: FRENCH_MOBILE });
      expect(await numbering.read('+33612345678', 'US')).to.deep.equal({ kind: 'read', details: FRENCH_MOBILE });
    });

    it('keeps an extension apart from the number', async () => {
      expect(await numbering.read('+1 212 555 0123 ext. 42', undefined)).to.deep.equal({ kind: 'read', details: NEW_YORK_WITH_EXTENSION });
    });

    it('reads a non-geographic number with no country', async () => {
      expect(await numbering.read('+800 1234 5678', undefined)).to.deep.equal({ kind: 'read', details: INTERNATIONAL_FREEPHONE });
    });

    it('refuses a region it has no plan for, even beside an international number', async () => {
      expect(await numbering.read('06 12 34 56 78', 'ZZ')).to.deep.equal({ kind: 'unknown-region' });
      expect(await numbering.read('+33612345678', 'ZZ')).to.deep.equal({ kind: 'unknown-region' });
    });

    it('says a text without a phone number in it is unreadable', async () => {
      expect(await numbering.read('()', 'FR')).to.deep.equal({ kind: 'unreadable', reason: 'not-a-number' });
    });
  });
}

describe('contract: PhoneNumbering (libphonenumber-js only: what a seeded memory adapter cannot know)', () => {
  const numbering = new LibphonenumberNumbering();

  it('says why a number cannot be read', async () => {
    expect(await numbering.read('+999 123456', undefined)).to.deep.equal({ kind: 'unreadable', reason: 'unknown-calling-code' });
    expect(await numbering.read('1', 'FR')).to.deep.equal({ kind: 'unreadable', reason: 'too-short' });
    expect(await numbering.read(`+33 ${'1'.repeat(20)}`, undefined)).to.deep.equal({ kind: 'unreadable', reason: 'too-long' });
  });

  it('reads a number too short to be possible, and says it is neither possible nor valid', async () => {
    const reading = await numbering.read('12', 'FR');
    expect(reading).to.deep.include({ kind: 'read' });
    expect(reading.kind === 'read' && reading.details).to.deep.include({ valid: false, possible: false, type: null, country: 'FR', nationalNumber: '12' });
  });

  it('agrees with the library’s own validity and possibility checks, in every region', async () => {
    let checked = 0;
    for (const region of getCountries()) {
      const example = getExampleNumber(region, mobileExamples)?.number;
      if (example === undefined) continue;
      // The example, then near misses: one digit short, one too many, the last digit changed.
      for (const number of [example, example.slice(0, -1), `${example}5`, `${example.slice(0, -1)}${(Number(example.at(-1)) + 1) % 10}`]) {
        const reading = await numbering.read(number, undefined);
        if (reading.kind !== 'read') continue;
        expect(reading.details.valid, number).to.equal(isValidPhoneNumber(number));
        expect(reading.details.possible, number).to.equal(isPossiblePhoneNumber(number));
        checked += 1;
      }
    }
    expect(checked).to.be.greaterThan(600);
  });

  it('answers every caller that arrives before the library has loaded', async () => {
    const fresh = new LibphonenumberNumbering();
    const readings = await Promise.all(Array.from({ length: 20 }, () => fresh.read('+33612345678', undefined)));
    for (const reading of readings) expect(reading).to.deep.equal({ kind: 'read', details: FRENCH_MOBILE });
  });
});
