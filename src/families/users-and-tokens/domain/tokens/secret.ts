import { createHash } from 'node:crypto';
import type { Randomness } from '../../../../domain/ports.js';

/** Every secret starts with this, so a leaked one is easy to recognise in logs and scanners. */
export const SECRET_PREFIX = 'uapi_';
const SECRET_BYTES = 32;
/** base64url of 32 bytes, no padding. */
const SECRET_PATTERN = /^uapi_[A-Za-z0-9_-]{43}$/;
const DISPLAY_PREFIX_LENGTH = SECRET_PREFIX.length + 8;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export interface IssuedSecret {
  readonly secret: string;
  readonly secretHash: string;
  readonly prefix: string;
}

export function issueSecret(randomness: Randomness): IssuedSecret {
  const secret = SECRET_PREFIX + randomness.bytes(SECRET_BYTES).toString('base64url');
  return { secret, secretHash: hashSecret(secret), prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A cheap shape check that turns junk away before any store is asked. */
export function looksLikeSecret(candidate: string): boolean {
  return SECRET_PATTERN.test(candidate);
}

/** 80 random bits as four groups of four base32 characters, e.g. `K7QX-2MDA-PL4R-ZT9B`. */
export function issueLicense(randomness: Randomness): string {
  const bytes = randomness.bytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)!.join('-');
}
