import type { Context } from 'koa';
import type { CatalogueError } from '../../domain/errors.js';
import { INERT_DOCUMENT_HEADERS } from './document-headers.js';
import { API_PREFIX, type Redirect } from './route-table.js';

/**
 * Longest `Location` a redirect sends: Node's own client reads at most 16 KB of headers, and
 * others less; a target beyond it is refused rather than sent where the client cannot follow.
 */
const MAX_REDIRECT_TARGET_BYTES = 8_192;

/** A path that moved: 308 to its new place with the query string kept, or 414 where that would not fit in a header. */
export function redirection(
  redirect: Redirect,
  fail: (ctx: Context, error: CatalogueError) => void,
): (ctx: Context) => void {
  const operation = `${redirect.method} ${API_PREFIX}${redirect.from}`;
  return (ctx) => {
    ctx.state.operation = operation;
    ctx.status = 308;
    ctx.redirect(API_PREFIX + redirect.to + (ctx.querystring ? `?${ctx.querystring}` : ''));
    const target = ctx.response.get('Location');
    if (Buffer.byteLength(target) > MAX_REDIRECT_TARGET_BYTES) {
      ctx.remove('Location');
      fail(ctx, {
        _tag: 'RedirectTargetTooLong',
        details: `The new place with this query would be ${Buffer.byteLength(target)} bytes long, more than the ${MAX_REDIRECT_TARGET_BYTES} a redirect may send: ask ${API_PREFIX}${redirect.to} itself`,
      });
      return;
    }
    // Koa says where it redirects in a small page of HTML or text, which must not be taken for more.
    ctx.response.set(INERT_DOCUMENT_HEADERS);
  };
}
