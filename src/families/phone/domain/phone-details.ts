import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, missingInput, type DomainError } from '../../../domain/errors.js';
import type { PhoneNumberDetails } from './phone-number.js';
import type { PhoneNumbering, UnreadableReason } from './ports.js';

/**
 * What may be sent as a number: at most 64 characters of digits, spaces and + ( ) - . /, a `+`
 * only in front, then optionally an extension (`ext. 12`, `ext 12`, `x12`, `#12`, `;ext=12`).
 * It must begin with `+`, `(` or a digit: a leading space is what an unencoded `+` becomes in a
 * query string, and reading it as a national number would answer for the wrong country.
 */
export const PHONE_INPUT = /^(?=.{1,64}$)(?=[+(0-9])\+?[0-9 ()./-]+(?:(?:;ext=|ext\.?|x|#) ?[0-9]{1,20})?$/i;
export const PHONE_INPUT_RULE =
  'a phone number of at most 64 characters: digits, spaces, ( ) - . /, a leading + (sent as %2B), an optional extension such as "ext. 12" or "x12"';

/** ISO 3166-1 alpha-2, either case. */
export const COUNTRY_CODE = /^[A-Za-z]{2}$/;
export const COUNTRY_CODE_RULE = 'an ISO 3166-1 alpha-2 country code such as FR, either case';

export interface PhoneDetailsQuery {
  readonly number: string;
  /** Where a number without `+` is dialled; checked but not used for a number with `+`. */
  readonly country?: string | undefined;
}

/** The details, after the input exactly as it was given. */
export type PhoneDetails = { readonly input: string } & PhoneNumberDetails;

const unreadable: { readonly [R in UnreadableReason]: string } = {
  'not-a-number': 'number is not a phone number',
  'unknown-calling-code': 'number starts with a calling code that no country or service uses',
  'too-short': 'number is too short to be a phone number',
  'too-long': 'number is too long to be a phone number',
};

const invalidNumber = (reason: string): DomainError => invalidInput('number', reason);

export class GetPhoneDetails {
  constructor(private readonly numbering: PhoneNumbering) {}

  async execute({ number, country }: PhoneDetailsQuery): Promise<E.Either<DomainError, PhoneDetails>> {
    if (!PHONE_INPUT.test(number)) return E.left(invalidNumber(`number must be ${PHONE_INPUT_RULE}`));
    if (country !== undefined && !COUNTRY_CODE.test(country)) {
      return E.left(invalidInput('country', `country must be ${COUNTRY_CODE_RULE}`));
    }
    if (!number.startsWith('+') && country === undefined) return E.left(missingInput('country'));

    const reading = await this.numbering.read(number, country?.toUpperCase());
    switch (reading.kind) {
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
        return E.right({ input: number, ...reading.details });
      }
      case 'unknown-region':
        return E.left(invalidInput('country', `country ${country} has no numbering plan`));
      case 'unreadable':
        return E.left(invalidNumber(unreadable[reading.reason]));
    }
  }
}
