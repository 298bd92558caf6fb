import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type InputError } from '../../../domain/errors.js';
import { characterCount, hasControlOrInvisibleCharacter } from '../../../domain/text.js';

/** A file sent with a message: its bytes, the name a mail program saves it under, and its media type. */
export interface Attachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

/**
 * The media types an attachment may have: documents, pictures, text, calendars and archives, as
 * invoices, tickets and reports come. No executables, scripts or HTML (which runs wherever it is
 * opened), nor formats that carry macros.
 */
export const ATTACHMENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'text/plain',
  'text/csv',
  'text/calendar',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
] as const;

export const MAX_ATTACHMENTS = 10;
export const MAX_FILENAME_CHARACTERS = 255;
/** The fields an attachment is given by; any other is refused. */
const ATTACHMENT_FIELDS = ['filename', 'contentType', 'content'];

/** Base64's alphabet (RFC 4648, section 4), padded, without line breaks or spaces. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** How many bytes canonical base64 of this length stands for. */
const decodedLength = (base64: string): number =>
  (base64.length / 4) * 3 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

/**
 * Whether `text` is base64 as RFC 4648 writes it, and as only one byte string writes it: the
 * standard alphabet, padded to a multiple of four, the bits after the last byte zero. Anything
 * else (URL-safe letters, line breaks, missing padding) would be decoded into bytes nobody sent.
 */
export const isCanonicalBase64 = (text: string): boolean =>
  text.length % 4 === 0 && BASE64.test(text) && Buffer.from(text, 'base64').toString('base64') === text;

function wrongFilename(filename: unknown): string | undefined {
  if (typeof filename !== 'string') return 'must be text';
  if (filename.trim() === '') return 'must not be empty';
  if (characterCount(filename) > MAX_FILENAME_CHARACTERS)
    return `must be at most ${MAX_FILENAME_CHARACTERS} characters`;
  if (/[/\\]/.test(filename)) return 'must be a name alone, without / or \\';
  if (filename === '.' || filename === '..') return 'must name a file';
  if (hasControlOrInvisibleCharacter(filename) || /[\ud800-\udfff\u2028\u2029]/u.test(filename))
    return 'must not contain line breaks or other control or invisible characters';
  return undefined;
}

/**
 * The attachments of a request: a list of at most `MAX_ATTACHMENTS` objects `{filename,
 * contentType, content}`, `content` canonical base64 and all of them together at most
 * `maxBytes` once decoded (counted from the lengths before anything is decoded).
 */
export function readAttachments(value: unknown, maxBytes: number): E.Either<InputError, readonly Attachment[]> {
  const refused = (reason: string) => E.left(invalidInput('attachments', reason));
  if (value === undefined || value === null) return E.right([]);
  if (!Array.isArray(value)) return refused('attachments must be a list of {filename, contentType, content}');
  if (value.length > MAX_ATTACHMENTS) return refused(`at most ${MAX_ATTACHMENTS} attachments, got ${value.length}`);
  let total = 0;
  for (const [index, each] of (value as unknown[]).entries()) {
    const where = `attachments[${index}]`;
    if (typeof each !== 'object' || each === null || Array.isArray(each))
      return refused(`${where} must be an object {filename, contentType, content}`);
    const given = each as Readonly<Record<string, unknown>>;
    const unknown = Object.keys(given).find((key) => !ATTACHMENT_FIELDS.includes(key));
    if (unknown !== undefined)
      return refused(`${where} takes only filename, contentType and content, not ${JSON.stringify(unknown)}`);
    const wrongName = wrongFilename(given.filename);
    if (wrongName !== undefined) return refused(`${where}.filename ${wrongName}`);
    if (!(ATTACHMENT_TYPES as readonly unknown[]).includes(given.contentType))
      return refused(`${where}.contentType must be one of ${ATTACHMENT_TYPES.join(', ')}`);
    const notBase64 = () =>
      refused(
        `${where}.content must be the file in base64 (RFC 4648: A–Z, a–z, 0–9, + and /, padded with =, no line breaks)`,
      );
    const { content } = given;
    if (typeof content !== 'string' || content.length % 4 !== 0 || !BASE64.test(content)) return notBase64();
    // Counted from the length, so that nothing too large is decoded even to be checked.
    total += decodedLength(content);
    if (total > maxBytes) return refused(`attachments must be at most ${maxBytes} bytes together, once decoded`);
    if (!isCanonicalBase64(content)) return notBase64();
  }
  return E.right(
    (value as Readonly<Record<string, string>>[]).map(({ filename, contentType, content }) => ({
      filename: filename!,
      contentType: contentType!,
      content: Buffer.from(content!, 'base64'),
    })),
  );
}
