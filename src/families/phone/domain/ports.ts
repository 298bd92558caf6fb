import { identifier } from '../../../domain/identifier.js';
import type { PhoneNumberDetails, ShortNumberDetails } from './phone-number.js';

/** Why a text could not be read as a phone number at all. */
export type UnreadableReason = 'not-a-number' | 'unknown-calling-code' | 'too-short' | 'too-long';

export type PhoneReading =
  | { readonly kind: 'read'; readonly details: PhoneNumberDetails }
  | { readonly kind: 'short'; readonly details: ShortNumberDetails }
  | { readonly kind: 'unknown-region' }
  | { readonly kind: 'unreadable'; readonly reason: UnreadableReason };

/** The world's numbering plans. */
export interface PhoneNumbering {
  /**
   * Reads `number`: international when it starts with `+`, otherwise as dialled in `region`
   * (an upper-case alpha-2 code). A given region must be one the plans know, even when the
   * number is international and does not need it. A number without `+` that is one of the
   * region's short numbers (911 in the United States) is read as such. Places and carriers are
   * named in `language` (ISO 639-1) where the data has it, else in English.
   */
  read(number: string, region: string | undefined, language?: string): Promise<PhoneReading>;
}
export const PhoneNumbering = identifier<PhoneNumbering>('PhoneNumbering');
