import type { GeocodedAddress } from '../../domain/places.js';
import type { Geocoder, GeocoderResult } from '../../domain/ports.js';

/** Texts and the addresses they find, for tests and for library users who hold their own: a text is matched case-insensitively. */
export class MemoryGeocoder implements Geocoder {
  readonly name = 'memory';
  private readonly addresses: ReadonlyMap<string, readonly GeocodedAddress[]>;

  constructor(
    addresses: Readonly<Record<string, readonly GeocodedAddress[]>>,
    readonly attribution = 'Addresses held in memory',
  ) {
    this.addresses = new Map(Object.entries(addresses).map(([text, found]) => [text.toLowerCase(), found]));
  }

  async geocode(text: string, limit: number): Promise<GeocoderResult> {
    return { kind: 'found', addresses: (this.addresses.get(text.toLowerCase()) ?? []).slice(0, limit), stale: false };
  }
}
