import { OpenLocationCode } from 'open-location-code';
import type { CodeArea, PlusCodeLength, PlusCodes } from '../../domain/location/plus-codes.js';

/** Codes are at most 8 digits, a separator and 7 more; anything longer is not worth parsing. */
const PLAUSIBLE = /^[0-9A-Z]{0,8}\+[0-9A-Z]{0,7}$/;

/**
 * A full code with its first 2, 4 or 6 characters taken off. The library is laxer ("+8Q" or a
 * padded "0000+" pass its check) and then recovers codes their author never had.
 */
const SHORT = /^(?:[2-9CFGHJMPQRVWX]{2}){1,3}\+[2-9CFGHJMPQRVWX]{2,7}$/;

/** Plus codes by Google's reference JavaScript implementation (open-location-code). */
export class LibraryPlusCodes implements PlusCodes {
  private readonly olc = new OpenLocationCode();

  kindOf(code: string): 'full' | 'short' | 'invalid' {
    const upper = code.toUpperCase();
    if (!PLAUSIBLE.test(upper)) return 'invalid';
    if (this.olc.isFull(upper)) return 'full';
    return this.olc.isShort(upper) && SHORT.test(upper) ? 'short' : 'invalid';
  }

  encode(lat: number, lon: number, length: PlusCodeLength): string {
    return this.olc.encode(lat, lon, length);
  }

  decode(fullCode: string): CodeArea {
    const code = fullCode.toUpperCase();
    const area = this.olc.decode(code);
    return { code, length: area.codeLength, south: area.latitudeLo, west: area.longitudeLo, north: area.latitudeHi, east: area.longitudeHi };
  }

  recover(shortCode: string, referenceLat: number, referenceLon: number): string {
    return this.olc.recoverNearest(shortCode.toUpperCase(), referenceLat, referenceLon);
  }
}
