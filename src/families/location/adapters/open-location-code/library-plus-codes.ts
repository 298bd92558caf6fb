import { createRequire } from 'node:module';
import type { CodeArea, PlusCodeLength } from '../../domain/plus-codes.js';
import type { PlusCodes } from '../../domain/ports.js';

// A CommonJS module whose class is its `default` export: required, so Node and tsx agree on what
// `default` is (an ESM default import gives Node the module object and tsx the class).
const { default: OpenLocationCode } = createRequire(import.meta.url)(
  'open-location-code-typescript',
) as typeof import('open-location-code-typescript');

/** Codes are at most 8 digits, a separator and 7 more; anything longer is not worth parsing. */
const PLAUSIBLE = /^[0-9A-Z]{0,8}\+[0-9A-Z]{0,7}$/;

/**
 * A full code with its first 2, 4 or 6 characters taken off (`22+` is what is left of the
 * 8-digit `8FJFW222+`). The library is laxer ("+8Q" or a padded "0000+" pass its check) and then
 * recovers codes their author never had.
 */
const SHORT = /^(?:[2-9CFGHJMPQRVWX]{2}){1,3}\+(?:[2-9CFGHJMPQRVWX]{2,7})?$/;

/**
 * Plus codes by a TypeScript port of Google's reference implementation that computes cells in
 * integers, as the reference does since 2019: floating-point division put round coordinates
 * such as 48.85,2.35 into the neighbouring cell (8FW4R8XX+XX instead of 8FW4V922+22).
 */
export class LibraryPlusCodes implements PlusCodes {
  kindOf(code: string): 'full' | 'short' | 'invalid' {
    const upper = code.toUpperCase();
    if (!PLAUSIBLE.test(upper)) return 'invalid';
    if (OpenLocationCode.isFull(upper)) return 'full';
    return OpenLocationCode.isShort(upper) && SHORT.test(upper) ? 'short' : 'invalid';
  }

  encode(lat: number, lon: number, length: PlusCodeLength): string {
    return OpenLocationCode.encode(lat, lon, length);
  }

  decode(fullCode: string): CodeArea {
    const code = fullCode.toUpperCase();
    const area = OpenLocationCode.decode(code);
    return {
      code,
      length: area.codeLength,
      south: area.latitudeLo,
      west: area.longitudeLo,
      north: area.latitudeHi,
      east: area.longitudeHi,
    };
  }

  recover(shortCode: string, referenceLat: number, referenceLon: number): string {
    return OpenLocationCode.recoverNearest(shortCode.toUpperCase(), referenceLat, referenceLon);
  }
}
