import * as E from 'fp-ts/lib/Either.js';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { DomainError } from '../../domain/errors.js';

const invalid = (details: string): E.Either<DomainError, never> => E.left({ _tag: 'InvalidBodyParameter', names: [], details });

/**
 * The request's JSON body, read up to `maxBytes`. No body reads as `{}` so that missing fields
 * are reported by name; anything but JSON, a body too large, or JSON that does not parse is
 * refused before any use case runs.
 */
export async function readJsonBody(ctx: Context, maxBytes: number): Promise<E.Either<DomainError, unknown>> {
  const { headers } = ctx.req;
  const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  if (!hasBody) return E.right({});
  if (!ctx.is('application/json')) {
    ctx.set('Connection', 'close');
    return invalid('the body must be application/json');
  }
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: maxBytes, length: headers['content-length'], encoding: 'utf8' });
  } catch (error) {
    // The rest of an unread body would be taken for the next request on this connection.
    ctx.set('Connection', 'close');
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') return invalid(`the body must be at most ${maxBytes} bytes`);
    if (type === 'request.aborted') throw error;
    return invalid('the body could not be read as UTF-8 JSON');
  }
  try {
    return E.right(JSON.parse(text) as unknown);
  } catch {
    return invalid('the body is not valid JSON');
  }
}
