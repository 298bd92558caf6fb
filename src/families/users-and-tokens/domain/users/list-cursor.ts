import { createHmac, timingSafeEqual } from 'node:crypto';
import type { UserPosition } from './ports.js';

/** The filters a cursor was made for: a cursor goes on with the listing it came from, never another. */
export interface ListingFilters {
  readonly prefix?: string;
  readonly blocked?: boolean;
  readonly permission?: string;
}

const MAC_BYTES = 16;
const VERSION = 'u1';
const POSITION = /^(0|[1-9][0-9]{0,15})\.([0-9A-Za-z-]{1,64})$/;

const mac = (secret: Buffer, position: string, filters: ListingFilters): Buffer =>
  createHmac('sha256', secret)
    .update(
      JSON.stringify([VERSION, position, filters.prefix ?? null, filters.blocked ?? null, filters.permission ?? null]),
    )
    .digest()
    .subarray(0, MAC_BYTES);

/**
 * A cursor: the position of the last user of a page, signed with the store's listing secret
 * together with the filters. A client can read it as opaque text only; one it made up or altered
 * fails the signature. A position says where the next page starts whoever is added or removed
 * meanwhile, so pages neither repeat nor skip a user who stays.
 */
export function makeCursor(secret: Buffer, position: UserPosition, filters: ListingFilters): string {
  return signed(secret, `${position.createdAt}.${position.id}`, filters);
}

const signed = (secret: Buffer, text: string, filters: ListingFilters): string =>
  `${Buffer.from(text).toString('base64url')}.${mac(secret, text, filters).toString('base64url')}`;

/** The position a cursor made by `makeCursor` for these filters holds; undefined for any other text. */
export function readCursor(secret: Buffer, cursor: string, filters: ListingFilters): UserPosition | undefined {
  const [encoded, signature, ...rest] = cursor.split('.');
  if (encoded === undefined || signature === undefined || rest.length > 0) return undefined;
  const text = Buffer.from(encoded, 'base64url').toString();
  // Compared as written, not as decoded: base64 lets several spellings decode to the same bytes.
  const expected = Buffer.from(signed(secret, text, filters));
  const given = Buffer.from(`${encoded}.${signature}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const match = POSITION.exec(text);
  if (!match) return undefined;
  return { createdAt: Number(match[1]), id: match[2]! };
}
