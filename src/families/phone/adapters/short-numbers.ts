import { createRequire } from 'node:module';
import { SHORT_NUMBER_COSTS, type ShortNumberCost } from '../domain/phone-number.js';

/** The part of google-libphonenumber (Google's own library, compiled to JavaScript) read here. */
interface GoogleLibphonenumber {
  readonly PhoneNumberUtil: { getInstance(): { parse(number: string, region: string): ParsedNumber } };
  readonly ShortNumberInfo: {
    getInstance(): ShortNumberInfo;
    readonly ShortNumberCost: Readonly<Record<ShortNumberCost, number>>;
  };
}
type ParsedNumber = { readonly __brand: 'google-libphonenumber PhoneNumber' };
interface ShortNumberInfo {
  isValidShortNumberForRegion(number: ParsedNumber, region: string): boolean;
  isEmergencyNumber(number: string, region: string): boolean;
  getExpectedCostForRegion(number: ParsedNumber, region: string): number;
  isCarrierSpecificForRegion(number: ParsedNumber, region: string): boolean;
}

export interface ShortNumberFacts {
  readonly emergency: boolean;
  readonly cost: ShortNumberCost;
  readonly carrierSpecific: boolean;
}

/** No region's short numbers are longer (libphonenumber's short-number plans top out at six digits). */
const LONGEST_SHORT_NUMBER = 6;

/**
 * The regions' short numbers (911, 112, 999, 3855) from google-libphonenumber's short-number
 * metadata, which libphonenumber-js leaves out. Its whole library comes with it (about 10 MB
 * once loaded), so it is loaded on the first input short enough to be one, not at start.
 */
export class ShortNumbers {
  private library:
    | {
        readonly util: ReturnType<GoogleLibphonenumber['PhoneNumberUtil']['getInstance']>;
        readonly info: ShortNumberInfo;
        readonly costs: ReadonlyMap<number, ShortNumberCost>;
      }
    | undefined;

  /** What `digits` is as a short number of `region`, or undefined when it is none of its short numbers. */
  factsOf(digits: string, region: string): ShortNumberFacts | undefined {
    if (!/^[0-9]+$/.test(digits) || digits.length > LONGEST_SHORT_NUMBER) return undefined;
    const { util, info, costs } = this.loaded();
    let parsed: ParsedNumber;
    try {
      parsed = util.parse(digits, region);
    } catch {
      return undefined;
    }
    const emergency = info.isEmergencyNumber(digits, region);
    if (!emergency && !info.isValidShortNumberForRegion(parsed, region)) return undefined;
    return {
      emergency,
      cost: costs.get(info.getExpectedCostForRegion(parsed, region)) ?? 'UNKNOWN_COST',
      carrierSpecific: info.isCarrierSpecificForRegion(parsed, region),
    };
  }

  private loaded() {
    if (this.library === undefined) {
      const google = createRequire(import.meta.url)('google-libphonenumber') as GoogleLibphonenumber;
      const { ShortNumberCost } = google.ShortNumberInfo;
      this.library = {
        util: google.PhoneNumberUtil.getInstance(),
        info: google.ShortNumberInfo.getInstance(),
        costs: new Map(SHORT_NUMBER_COSTS.map((cost) => [ShortNumberCost[cost], cost])),
      };
    }
    return this.library;
  }
}
