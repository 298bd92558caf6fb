import { createHash } from 'node:crypto';
import type { Randomness } from '../../../../domain/ports.js';

/** Every secret starts with this, so a leaked one is easy to recognise in logs and scanners. */
export const SECRET_PREFIX = 'uapi_';
const SECRET_BYTES = 32;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 62^43 > 2^256: every 32-byte value fits in 43 base62 digits. */
const BODY_DIGITS = 43;
/** 62^6 > 2^32: a 32-bit checksum fits in 6 base62 digits. */
const CHECKSUM_DIGITS = 6;
/**
 * A secret as issued today: the prefix, 32 random bytes in base62 and a checksum of both, letters
 * and digits only so that a scanner's word boundaries hold (`uapi_[0-9A-Za-z]{49}`).
 */
export const SECRET_PATTERN = /^uapi_[0-9A-Za-z]{49}$/;
/** A secret issued before checksums: the prefix and 32 random bytes in base64url, no padding. It keeps working. */
const LEGACY_SECRET_PATTERN = /^uapi_[A-Za-z0-9_-]{43}$/;
const DISPLAY_PREFIX_LENGTH = SECRET_PREFIX.length + 8;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export interface IssuedSecret {
  readonly secret: string;
  readonly secretHash: string;
  readonly prefix: string;
}

function base62(value: bigint, digits: number): string {
  let out = '';
  for (let left = value; out.length < digits; left /= 62n) out = BASE62[Number(left % 62n)]! + out;
  return out;
}

/** The first 32 bits of the SHA-256 of what precedes it: a mistyped or cut secret fails it, 4 billion to one. */
const checksumOf = (prefixAndBody: string): string =>
  base62(BigInt(createHash('sha256').update(prefixAndBody).digest().readUInt32BE(0)), CHECKSUM_DIGITS);

export function issueSecret(randomness: Randomness): IssuedSecret {
  const body = base62(BigInt(`0x${randomness.bytes(SECRET_BYTES).toString('hex')}`), BODY_DIGITS);
  const secret = SECRET_PREFIX + body + checksumOf(SECRET_PREFIX + body);
  return { secret, secretHash: hashSecret(secret), prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * A cheap check that turns junk away before any store is asked: a secret of today's shape whose
 * checksum holds, or one of the shape issued before checksums.
 */
export function looksLikeSecret(candidate: string): boolean {
  if (SECRET_PATTERN.test(candidate)) {
    const split = candidate.length - CHECKSUM_DIGITS;
    return checksumOf(candidate.slice(0, split)) === candidate.slice(split);
  }
  return LEGACY_SECRET_PATTERN.test(candidate);
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
