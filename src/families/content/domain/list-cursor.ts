import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'c1';
const MAC_BYTES = 16;
const ENTRY_ID = /^[0-9a-f]{16}$/;

/**
 * A listing's cursor: the id of the last entry of a page, signed together with the listing it
 * belongs to (its kind and every filter, as given), so that a client can only hand back one the
 * server made for that same listing. The listing is any JSON-able value the caller names it by.
 */
export function makeListCursor(secret: Buffer, lastId: string, listing: unknown): string {
  return `${Buffer.from(lastId).toString('base64url')}.${macOf(secret, lastId, listing)}`;
}

/** The id a cursor made by `makeListCursor` for this listing holds; undefined for any other text. */
export function readListCursor(secret: Buffer, cursor: string, listing: unknown): string | undefined {
  const [encoded, signature, ...rest] = cursor.split('.');
  if (encoded === undefined || signature === undefined || rest.length > 0) return undefined;
  const id = Buffer.from(encoded, 'base64url').toString();
  // Compared as written, not as decoded: base64 lets several spellings decode to the same bytes.
  const expected = Buffer.from(makeListCursor(secret, id, listing));
  const given = Buffer.from(cursor);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return ENTRY_ID.test(id) ? id : undefined;
}

const macOf = (secret: Buffer, lastId: string, listing: unknown): string =>
  createHmac('sha256', secret)
    .update(JSON.stringify([VERSION, lastId, listing]))
    .digest()
    .subarray(0, MAC_BYTES)
    .toString('base64url');
