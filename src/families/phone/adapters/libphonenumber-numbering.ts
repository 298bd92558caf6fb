import { loadOnce } from '../../../platform/caching/load-once.js';
import type { PhoneNumberDetails } from '../domain/phone-number.js';
import type { PhoneNumbering, PhoneReading, UnreadableReason } from '../domain/ports.js';
import { NumberingPlanRules, type PlanMetadata } from './numbering-plan-rules.js';

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
  /** IANA zones, in ICU's order. */
  readonly timeZones: readonly string[];
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
  return zones === undefined || zones.length === 0 ? NO_TIME_ZONES : Object.freeze([...zones]);
}

/**
 * The numbering plans of libphonenumber-js with its full metadata (the `max` build: number types
 * and exact ranges, not only lengths), loaded on first use. Region names and time zones come from
 * the ICU data built into Node.
 */
export class LibphonenumberNumbering implements PhoneNumbering {
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

  async read(number: string, region: string | undefined): Promise<PhoneReading> {
    const lib = await this.load();
    if (region !== undefined && !lib.isSupportedCountry(region)) return { kind: 'unknown-region' };
    let parsed: ReturnType<Library['parsePhoneNumberWithError']>;
    try {
      parsed = lib.parsePhoneNumberWithError(number, region === undefined ? undefined : { defaultCountry: region });
    } catch (error) {
      const reason = error instanceof lib.ParseError ? reasonOf[error.message] : undefined;
      if (reason === undefined) throw error;
      return { kind: 'unreadable', reason };
    }
    const country = parsed.country ?? null;
    // The plan the library's own getType() and format() would select for this number.
    const rules = this.rulesOf(lib, country ?? parsed.countryCallingCode);
    const { nationalNumber, ext: extension } = parsed;
    if (nationalNumber.length > this.longestNumberOf(lib, parsed.countryCallingCode))
      return { kind: 'unreadable', reason: 'too-long' };
    const facts = country === null ? undefined : this.regionFacts(country);
    const type = rules.typeOf(nationalNumber) ?? null;
    const { international, national } = rules.format(nationalNumber, extension);
    const details: PhoneNumberDetails = {
      // With full metadata the library's own isValid() is exactly "has a type".
      valid: type !== null,
      possible: rules.isPossible(nationalNumber),
      type,
      countryCallingCode: parsed.countryCallingCode,
      country,
      countryName: facts?.name ?? null,
      timeZones: facts?.timeZones ?? NO_TIME_ZONES,
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
