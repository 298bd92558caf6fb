import type { PhoneNumberDetails, ShortNumberDetails } from '../domain/phone-number.js';
import type { PhoneNumbering, PhoneReading } from '../domain/ports.js';

const digitsOf = (text: string): string => text.replace(/[^0-9]/g, '');

/**
 * Numbering plans that know only the numbers they are seeded with, for tests and for running
 * without the library. A seeded number is found from the digits of its international format
 * after a `+`, or from those of its national format with its country; an extension is part of
 * those digits. A seeded short number is found from its digits dialled in its country. Any other
 * text is unreadable. A region is known when a seeded number belongs to it or it is listed in
 * `regions`. A number's details, its region's name, time zones, place and carrier included, are
 * answered exactly as seeded, whatever the language asked.
 */
export class MemoryPhoneNumbering implements PhoneNumbering {
  private readonly knownRegions: ReadonlySet<string>;

  constructor(
    private readonly numbers: readonly PhoneNumberDetails[],
    regions: readonly string[] = [],
    private readonly shortNumbers: readonly ShortNumberDetails[] = [],
  ) {
    this.knownRegions = new Set([
      ...regions,
      ...numbers.flatMap((entry) => (entry.country === null ? [] : [entry.country])),
      ...shortNumbers.map((entry) => entry.country),
    ]);
  }

  async read(number: string, region: string | undefined): Promise<PhoneReading> {
    if (region !== undefined && !this.knownRegions.has(region)) return { kind: 'unknown-region' };
    const digits = digitsOf(number);
    const short = number.startsWith('+')
      ? undefined
      : this.shortNumbers.find((entry) => entry.country === region && entry.shortNumber.digits === digits);
    if (short) return { kind: 'short', details: short };
    const found = number.startsWith('+')
      ? this.numbers.find((entry) => digitsOf(entry.formats.international) === digits)
      : this.numbers.find((entry) => entry.country === region && digitsOf(entry.formats.national) === digits);
    return found ? { kind: 'read', details: found } : { kind: 'unreadable', reason: 'not-a-number' };
  }
}
