import * as E from 'fp-ts/lib/Either.js';
import type { Context } from 'koa';
import type { CatalogueError, PlacedInputError } from '../../domain/errors.js';
import { BodyRefused, ClientGone, declaresBody, readBodyBytes } from './unfinished-body.js';
import {
  badUtf8JsonLocation,
  duplicateKeyLocation,
  echoed,
  illFormedJsonLocation,
  strictlyDecoded,
  type JsonLocation,
} from './well-formed.js';

const invalid = (details: string, names: readonly string[] = []): E.Either<PlacedInputError, never> =>
  E.left({ _tag: 'InvalidBodyParameter', names, details });

/** Refuses text that is not what the client wrote, naming where it sits when that is known. */
function notText(location: JsonLocation | undefined, what: string): E.Either<PlacedInputError, never> {
  if (location === undefined) return invalid(`the body ${what}`);
  const path = echoed(location.path);
  return invalid(`${path === '' ? 'the body' : path} ${what}`, location.field === undefined ? [] : [location.field]);
}

/**
 * The request's JSON body, read up to `maxBytes`. No body reads as `{}` so that missing fields
 * are reported by name; anything but JSON, a body too large, or JSON that does not parse is
 * refused before any use case runs. So is text that is not Unicode exactly: bytes that are not
 * UTF-8, and a lone surrogate escaped in the JSON (`"\ud800"`), named by the field it is in.
 * A body the server gave up on (see `refuseBody`) is answered with the server's refusal; a client
 * that went away mid-body throws `ClientGone`.
 */
export async function readJsonBody(ctx: Context, maxBytes: number): Promise<E.Either<CatalogueError, unknown>> {
  const { headers } = ctx.req;
  if (!declaresBody(headers)) return E.right({});
  if (!ctx.is('application/json')) {
    ctx.set('Connection', 'close');
    return invalid('the body must be application/json');
  }
  // JSON is UTF-8 (RFC 8259): a body said to be in another charset would be read as what it is not.
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    ctx.set('Connection', 'close');
    return invalid(`the body must be UTF-8 JSON (charset=utf-8 or none), not charset=${echoed(charset)}`);
  }
  let bytes: Buffer;
  try {
    // As bytes: raw-body's own decoding would turn bytes that are not UTF-8 into U+FFFD.
    bytes = await readBodyBytes(ctx.req, { limit: maxBytes, length: headers['content-length'] });
  } catch (error) {
    if (error instanceof BodyRefused) return E.left(error.refusal);
    if (error instanceof ClientGone) throw error;
    // The rest of an unread body would be taken for the next request on this connection.
    ctx.set('Connection', 'close');
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') return invalid(`the body must be at most ${maxBytes} bytes`);
    return invalid('the body could not be read as UTF-8 JSON');
  }
  const text = strictlyDecoded(bytes);
  if (text === undefined) return notText(badUtf8JsonLocation(bytes), 'is not valid UTF-8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return invalid('the body is not valid JSON');
  }
  const illFormed = illFormedJsonLocation(parsed, text);
  if (illFormed !== undefined) return notText(illFormed, 'holds a lone surrogate (such as \\ud800), which is not text');
  // A key given twice in one object, at any depth: JSON.parse keeps the last, and which one the client meant is not ours to guess.
  const duplicate = duplicateKeyLocation(text);
  return duplicate === undefined ? E.right(parsed) : notText(duplicate, 'must be given once');
}
