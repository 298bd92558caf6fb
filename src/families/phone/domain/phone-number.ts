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
   * The IANA time zones of `country`, in the order the ICU data gives them ("Europe/Paris"):
   * every zone of the region, not the one the number is in. Empty when `country` is null or the
   * data has none for it.
   */
  readonly timeZones: readonly string[];
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
