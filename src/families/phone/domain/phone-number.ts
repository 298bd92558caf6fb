/**
 * Kinds of number as the numbering plans name them (Google's libphonenumber vocabulary).
 * FIXED_LINE_OR_MOBILE is for plans, such as North America's, where the two cannot be told apart.
 */
export const PHONE_NUMBER_TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'FIXED_LINE_OR_MOBILE',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
] as const;
export type PhoneNumberType = (typeof PHONE_NUMBER_TYPES)[number];

/** What the numbering plans say about one number. */
export interface PhoneNumberDetails {
  /** Whether the number is assigned in its plan: right length and a range in use. */
  readonly valid: boolean;
  /** Whether its length alone could be right: weaker than `valid`. */
  readonly possible: boolean;
  /** null when the plan does not say (always so for an invalid number). */
  readonly type: PhoneNumberType | null;
  /** Digits only, without the `+`: "33". */
  readonly countryCallingCode: string;
  /** ISO 3166-1 alpha-2 in upper case; null for non-geographic numbers (+800, +883, ...) and when no region fits. */
  readonly country: string | null;
  /** The region's English name; null when `country` is. */
  readonly countryName: string | null;
  /**
   * The IANA time zones of the number itself, by their current names ("America/Toronto" for a
   * Toronto number): those libphonenumber's data gives its range, kept to the zones of `country`
   * where any are; the zones of `country` where the data knows none of the range; empty when
   * `country` is null and the data knows none.
   */
  readonly timeZones: readonly string[];
  /**
   * The carrier the number's range was first given to (numbers move between carriers since), for
   * a valid mobile, pager or fixed-line-or-mobile number whose range the data knows; else null.
   */
  readonly carrier: string | null;
  /**
   * The place a valid geographic number belongs to ("Toronto, ON", "Mumbai"), in the language
   * asked where the data has it, else in English; null where the data has none (most mobiles).
   */
  readonly location: string | null;
  /** The digits after the calling code, without a trunk prefix such as France's 0. */
  readonly nationalNumber: string;
  /** Digits of an extension, when the input gave one. */
  readonly extension?: string;
  readonly formats: {
    readonly e164: string;
    readonly international: string;
    readonly national: string;
    readonly rfc3966: string;
  };
}

/** What dialling a short number costs, in libphonenumber's words. */
export const SHORT_NUMBER_COSTS = ['TOLL_FREE', 'STANDARD_RATE', 'PREMIUM_RATE', 'UNKNOWN_COST'] as const;
export type ShortNumberCost = (typeof SHORT_NUMBER_COSTS)[number];

/**
 * A short number of a region's plan (911, 112, 999, 3855): dialled as it is within the region,
 * with no international form.
 */
export interface ShortNumberDetails {
  /** ISO 3166-1 alpha-2 of the region it is dialled in. */
  readonly country: string;
  readonly countryName: string | null;
  /** The region's zones, by their current names. */
  readonly timeZones: readonly string[];
  readonly shortNumber: {
    /** The digits as dialled. */
    readonly digits: string;
    /** Whether it reaches the emergency services. */
    readonly emergency: boolean;
    readonly cost: ShortNumberCost;
    /** Whether it works only on some carriers' networks (611 in the United States). */
    readonly carrierSpecific: boolean;
  };
}
