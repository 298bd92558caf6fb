import { loadOnce } from '../caching/load-once.js';
import type { PhoneNumberDetails, PhoneNumbering, PhoneReading, UnreadableReason } from '../../domain/phone/phone-numbering.js';

type Library = typeof import('libphonenumber-js/max');

const reasonOf: Readonly<Record<string, UnreadableReason>> = {
  NOT_A_NUMBER: 'not-a-number',
  INVALID_COUNTRY: 'unknown-calling-code',
  TOO_SHORT: 'too-short',
  TOO_LONG: 'too-long',
};

/**
 * The numbering plans of libphonenumber-js with its full metadata (the `max` build: number types
 * and exact ranges, not only lengths), loaded on first use. Region names come from the ICU data
 * built into Node.
 */
export class LibphonenumberNumbering implements PhoneNumbering {
  /** One load shared by every caller, started by the first. */
  private readonly load = loadOnce((): Promise<Library> => import('libphonenumber-js/max'));
  private regionNames: Intl.DisplayNames | undefined;
  /** ICU takes tens of microseconds per name: each of the ~250 regions is asked once. */
  private readonly regionNameCache = new Map<string, string | null>();

  private regionName(region: string): string | null {
    let name = this.regionNameCache.get(region);
    if (name === undefined) {
      this.regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
      name = this.regionNames.of(region) ?? null;
      this.regionNameCache.set(region, name);
    }
    return name;
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
    // Typed without a cast so that a kind the library adds and the domain lacks fails to compile.
    const type = parsed.getType() ?? null;
    const details: PhoneNumberDetails = {
      // With full metadata the library's own isValid() is exactly "has a type"; asking it again
      // would match the number against the same patterns a second time.
      valid: type !== null,
      possible: parsed.isPossible(),
      type,
      countryCallingCode: parsed.countryCallingCode,
      country,
      countryName: country === null ? null : this.regionName(country),
      nationalNumber: parsed.nationalNumber,
      ...(parsed.ext ? { extension: parsed.ext } : {}),
      formats: {
        e164: parsed.number,
        international: parsed.formatInternational(),
        national: parsed.formatNational(),
        rfc3966: parsed.getURI(),
      },
    };
    return { kind: 'read', details };
  }
}
