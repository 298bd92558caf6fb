import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, missingInput, type DomainError } from '../../../domain/errors.js';
import type { PhoneNumberDetails, ShortNumberDetails } from './phone-number.js';
import type { PhoneNumbering, UnreadableReason } from './ports.js';

/**
 * What may be sent as a number: at most 64 characters of digits, letters (a vanity number such as
 * 1-800-FLOWERS), spaces and + ( ) - . /, a `+` only in front, then optionally an extension
 * (`ext. 12`, `ext 12`, `x12`, `#12`, `;ext=12`). It must begin with `+`, `(` or a digit: a
 * leading space is what an unencoded `+` becomes in a query string, and reading it as a national
 * number would answer for the wrong country.
 */
export const PHONE_INPUT = /^(?=.{1,64}$)(?=[+(0-9])\+?[0-9A-Za-z ()./-]+(?:(?:;ext=|ext\.?|x|#) ?[0-9]{1,20})?$/i;
export const PHONE_INPUT_RULE =
  'a phone number of at most 64 characters: digits, letters of a vanity number, spaces, ( ) - . /, a leading + (sent as %2B), an optional extension such as "ext. 12" or "x12"';

/** The extension at the end of an input, if any, split from what is dialled. */
const EXTENSION = /(?:;ext=|ext\.?|x|#) ?[0-9]{1,20}$/i;
/** An extension's marker with no extension after it: a number cut short, not letters to dial. */
const BARE_EXTENSION_MARKER = /(?:ext\.?|x|#) ?$/i;
/** As libphonenumber, letters make a vanity number from three on; fewer are a typing mistake. */
const VANITY_LETTERS = 3;
const KEYPAD: Readonly<Record<string, string>> = Object.fromEntries(
  ['ABC', 'DEF', 'GHI', 'JKL', 'MNO', 'PQRS', 'TUV', 'WXYZ'].flatMap((letters, key) =>
    [...letters].map((letter) => [letter, String(key + 2)]),
  ),
);

/**
 * The number with the letters of a vanity number turned into the digits of a phone's keypad
 * (1-800-FLOWERS is 1-800-3569377); undefined for a number with one or two letters, or ending in
 * an extension's marker with no digits after it.
 */
function dialledDigits(number: string): { readonly number: string; readonly vanity: boolean } | undefined {
  const extension = EXTENSION.exec(number);
  const dialled = extension ? number.slice(0, extension.index) : number;
  if (BARE_EXTENSION_MARKER.test(dialled)) return undefined;
  const letters = dialled.match(/[a-z]/gi)?.length ?? 0;
  if (letters === 0) return { number, vanity: false };
  if (letters < VANITY_LETTERS) return undefined;
  const digits = dialled.replace(/[a-z]/gi, (letter) => KEYPAD[letter.toUpperCase()]!);
  return { number: digits + (extension?.[0] ?? ''), vanity: true };
}

/** ISO 3166-1 alpha-2, either case. */
export const COUNTRY_CODE = /^[A-Za-z]{2}$/;
export const COUNTRY_CODE_RULE = 'an ISO 3166-1 alpha-2 country code such as FR, either case';

export interface PhoneDetailsQuery {
  readonly number: string;
  /** Where a number without `+` is dialled; checked but not used for a number with `+`. */
  readonly country?: string | undefined;
  /** ISO 639-1: the language to name the number's place and carrier in, where the data has it. */
  readonly lang?: string | undefined;
}

/**
 * The details, after the input exactly as it was given and whether its letters were read as a
 * keypad's digits: a number's, or a short number's.
 */
export type PhoneDetails = { readonly input: string; readonly vanity: boolean } & (
  PhoneNumberDetails | ({ readonly valid: true } & ShortNumberDetails)
);

let languageNames: Intl.DisplayNames | undefined;
/** An ISO 639-1 code Node's ICU data names ("de", "ja"); "xx" or "DE" is refused, never ignored. */
const isLanguage = (lang: string): boolean => {
  languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  return /^[a-z]{2}$/.test(lang) && languageNames.of(lang) !== undefined;
};
export const LANGUAGE_RULE = 'an ISO 639-1 language code in lower case, such as de, ja or zh';

const unreadable: { readonly [R in UnreadableReason]: string } = {
  'not-a-number': 'number is not a phone number',
  'unknown-calling-code': 'number starts with a calling code that no country or service uses',
  'too-short': 'number is too short to be a phone number',
  'too-long': 'number is too long to be a phone number',
};

const invalidNumber = (reason: string): DomainError => invalidInput('number', reason);

export class GetPhoneDetails {
  constructor(private readonly numbering: PhoneNumbering) {}

  async execute({ number, country, lang }: PhoneDetailsQuery): Promise<E.Either<DomainError, PhoneDetails>> {
    if (!PHONE_INPUT.test(number)) return E.left(invalidNumber(`number must be ${PHONE_INPUT_RULE}`));
    if (country !== undefined && !COUNTRY_CODE.test(country)) {
      return E.left(invalidInput('country', `country must be ${COUNTRY_CODE_RULE}`));
    }
    if (lang !== undefined && !isLanguage(lang)) return E.left(invalidInput('lang', `lang must be ${LANGUAGE_RULE}`));
    if (!number.startsWith('+') && country === undefined) return E.left(missingInput('country'));
    const dialled = dialledDigits(number);
    if (dialled === undefined)
      return E.left(
        invalidNumber(
          'number has letters but is no vanity number (at least 3 letters) and no extension (digits after ext, x or #)',
        ),
      );

    const reading = await this.numbering.read(dialled.number, country?.toUpperCase(), lang);
    const answer = { input: number, vanity: dialled.vanity };
    switch (reading.kind) {
      case 'short':
        return E.right({ ...answer, valid: true, ...reading.details });
      case 'read': {
        // A + number says its own country: a country given beside it is honoured as a check, never dropped.
        const own = reading.details.country;
        if (number.startsWith('+') && country !== undefined && country.toUpperCase() !== own) {
          const whose = own === null ? 'no country' : own;
          return E.left(
            invalidInput(
              'country',
              `country ${country.toUpperCase()} is not the number's: ${number} is ${whose}'s by its calling code; leave country out for a number with +`,
            ),
          );
        }
        return E.right({ ...answer, ...reading.details });
      }
      case 'unknown-region':
        return E.left(invalidInput('country', `country ${country} has no numbering plan`));
      case 'unreadable':
        return E.left(invalidNumber(unreadable[reading.reason]));
    }
  }
}
