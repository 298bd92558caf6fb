import { loadOnce } from '../../../platform/caching/load-once.js';
import type { PhoneNumberDetails, PhoneNumberType } from '../domain/phone-number.js';
import type { PhoneNumbering, PhoneReading, UnreadableReason } from '../domain/ports.js';
import { GeoCarrierData } from './geo-carrier-data.js';
import { NumberingPlanRules, type PlanMetadata } from './numbering-plan-rules.js';
import { ShortNumbers } from './short-numbers.js';
import { currentZoneNames } from './time-zone-names.js';

type Library = typeof import('libphonenumber-js/max');

const reasonOf: Readonly<Record<string, UnreadableReason>> = {
  NOT_A_NUMBER: 'not-a-number',
  INVALID_COUNTRY: 'unknown-calling-code',
  TOO_SHORT: 'too-short',
  TOO_LONG: 'too-long',
};

/** What the ICU data built into Node says about a region. */
interface RegionFacts {
  /** English name. */
  readonly name: string | null;
  /** IANA zones, in ICU's order, by their current names. */
  readonly timeZones: readonly string[];
}

/** The kinds a carrier is named for, as libphonenumber's carrier mapper does: those a mobile may be. */
const CARRIER_KINDS: ReadonlySet<PhoneNumberType> = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE', 'PAGER']);
/** The kinds that can belong to a place; the data has places of mobiles only where they have one (Brazil, China). */
const PLACE_KINDS: ReadonlySet<PhoneNumberType> = new Set(['FIXED_LINE', 'FIXED_LINE_OR_MOBILE', 'MOBILE']);

/**
 * The number's own zones where the data knows its range, kept to its country's where they meet
 * (a North American toll-free range lists every zone of the plan's 25 countries); the country's
 * where the data knows none.
 */
function zonesOfNumber(rangeZones: readonly string[], countryZones: readonly string[]): readonly string[] {
  if (rangeZones.length === 0) return countryZones;
  const inCountry = rangeZones.filter((zone) => countryZones.includes(zone));
  return inCountry.length > 0 ? Object.freeze(inCountry) : rangeZones;
}

/**
 * A locale's zone list is a `timeZones` getter in Node 20's V8 and a `getTimeZones()` method in
 * newer ones (the Intl Locale Info proposal renamed it); TypeScript's ES2023 lib has neither.
 */
type LocaleWithTimeZones = Intl.Locale & {
  readonly timeZones?: readonly string[];
  getTimeZones?(): readonly string[] | undefined;
};

const NO_TIME_ZONES: readonly string[] = Object.freeze([]);

/** Shared by every answer for the region, hence frozen. */
function timeZonesOf(region: string): readonly string[] {
  const locale: LocaleWithTimeZones = new Intl.Locale(`und-${region}`);
  const zones = typeof locale.getTimeZones === 'function' ? locale.getTimeZones() : locale.timeZones;
  return zones === undefined || zones.length === 0 ? NO_TIME_ZONES : currentZoneNames(zones);
}

/**
 * The numbering plans of libphonenumber-js with its full metadata (the `max` build: number types
 * and exact ranges, not only lengths), loaded on first use. Region names and time zones come from
 * the ICU data built into Node.
 */
export class LibphonenumberNumbering implements PhoneNumbering {
  constructor(
    private readonly places: GeoCarrierData = new GeoCarrierData(),
    private readonly shortNumbers: ShortNumbers = new ShortNumbers(),
  ) {}

  /** One load shared by every caller, started by the first. */
  private readonly load = loadOnce((): Promise<Library> => import('libphonenumber-js/max'));
  private regionNames: Intl.DisplayNames | undefined;
  /** ICU takes tens of microseconds per name and about 0.2 ms per zone list: each of the ~250 regions is asked once. */
  private readonly regionCache = new Map<string, RegionFacts>();
  /** By region, or by calling code for a number of none: at most one per plan of the metadata. */
  private readonly planRules = new Map<string, NumberingPlanRules>();

  /** By calling code: the longest national number of any plan that shares it. */
  private readonly longestNumbers = new Map<string, number>();

  /**
   * The parser lets up to 17 digits through whatever the plan; a number longer than every plan of
   * its calling code allows (+599 is Curaçao's and the Caribbean Netherlands') is none of theirs.
   */
  private longestNumberOf(lib: Library, callingCode: string): number {
    let longest = this.longestNumbers.get(callingCode);
    if (longest === undefined) {
      const regions = lib.getCountries().filter((region) => lib.getCountryCallingCode(region) === callingCode);
      const plans: string[] = regions.length > 0 ? regions : [callingCode];
      longest = Math.max(...plans.map((plan) => this.rulesOf(lib, plan).longestNationalNumber));
      this.longestNumbers.set(callingCode, longest);
    }
    return longest;
  }

  private rulesOf(lib: Library, plan: string): NumberingPlanRules {
    let rules = this.planRules.get(plan);
    if (rules === undefined) {
      const metadata = new lib.Metadata() as unknown as PlanMetadata;
      metadata.selectNumberingPlan(plan);
      rules = new NumberingPlanRules(metadata);
      this.planRules.set(plan, rules);
    }
    return rules;
  }

  private regionFacts(region: string): RegionFacts {
    let facts = this.regionCache.get(region);
    if (facts === undefined) {
      this.regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
      facts = { name: this.regionNames.of(region) ?? null, timeZones: timeZonesOf(region) };
      this.regionCache.set(region, facts);
    }
    return facts;
  }

  /** `number` as one of the short numbers of `region` (911, 112), when it is dialled without + and is one. */
  private shortNumberOf(number: string, region: string | undefined): PhoneReading | undefined {
    if (region === undefined || number.startsWith('+')) return undefined;
    const digits = number.replace(/[ ()./-]/g, '');
    const facts = this.shortNumbers.factsOf(digits, region);
    if (facts === undefined) return undefined;
    const { name, timeZones } = this.regionFacts(region);
    return {
      kind: 'short',
      details: { country: region, countryName: name, timeZones, shortNumber: { digits, ...facts } },
    };
  }

  async read(number: string, region: string | undefined, language?: string): Promise<PhoneReading> {
    const lib = await this.load();
    if (region !== undefined && !lib.isSupportedCountry(region)) return { kind: 'unknown-region' };
    let parsed: ReturnType<Library['parsePhoneNumberWithError']>;
    try {
      parsed = lib.parsePhoneNumberWithError(number, region === undefined ? undefined : { defaultCountry: region });
    } catch (error) {
      const reason = error instanceof lib.ParseError ? reasonOf[error.message] : undefined;
      if (reason === undefined) throw error;
      return this.shortNumberOf(number, region) ?? { kind: 'unreadable', reason };
    }
    const country = parsed.country ?? null;
    // The plan the library's own getType() and format() would select for this number.
    const rules = this.rulesOf(lib, country ?? parsed.countryCallingCode);
    const { nationalNumber, ext: extension } = parsed;
    if (nationalNumber.length > this.longestNumberOf(lib, parsed.countryCallingCode))
      return { kind: 'unreadable', reason: 'too-long' };
    const facts = country === null ? undefined : this.regionFacts(country);
    const type = rules.typeOf(nationalNumber) ?? null;
    // With full metadata the library's own isValid() is exactly "has a type".
    const valid = type !== null;
    if (!valid && !extension) {
      const short = this.shortNumberOf(number, region);
      if (short) return short;
    }
    const callingCode = parsed.countryCallingCode;
    const countryZones = facts?.timeZones ?? NO_TIME_ZONES;
    const [timeZones, carrier, location] = valid
      ? await Promise.all([
          this.places.timeZonesOf(callingCode, nationalNumber).then((zones) => zonesOfNumber(zones, countryZones)),
          CARRIER_KINDS.has(type) ? this.places.carrierOf(callingCode, nationalNumber, language) : undefined,
          PLACE_KINDS.has(type) ? this.places.placeOf(callingCode, nationalNumber, language) : undefined,
        ])
      : [countryZones, undefined, undefined];
    const { international, national } = rules.format(nationalNumber, extension);
    const details: PhoneNumberDetails = {
      valid,
      possible: rules.isPossible(nationalNumber),
      type,
      countryCallingCode: parsed.countryCallingCode,
      country,
      countryName: facts?.name ?? null,
      timeZones,
      carrier: carrier ?? null,
      location: location ?? null,
      nationalNumber,
      ...(extension ? { extension } : {}),
      formats: {
        e164: parsed.number,
        international,
        national,
        // What the library's getURI() writes (RFC3966.js): no layout, only E.164 and the extension.
        rfc3966: `tel:${parsed.number}${extension ? `;ext=${extension}` : ''}`,
      },
    };
    return { kind: 'read', details };
  }
}
