import * as E from 'fp-ts/lib/Either.js';
import type { Context } from 'koa';
import type { DomainError, PlacedInputError } from '../../domain/errors.js';
import type { Actor } from '../../domain/identity/actor.js';
import { checkPathEncoding, decodeBody, decodeHeaders, decodeParams, decodeQuery } from './decoding.js';
import { readJsonBody } from './json-body.js';
import { checkQueryEncoding, parsedQuery } from './query-string.js';
import { servedPath, type OpenRouteInput, type Route } from './route-table.js';
import { declaresBody } from './unfinished-body.js';

/** What decoding refuses: fields its decoders placed, or path parameters the route places. */
type DecodeVerdict<A> = E.Either<DomainError | PlacedInputError, A>;
type HandlerInput = Parameters<Route['handle']>[0];

/** The decode stage of a route: path, query, headers and body checked against its codecs, in that order. */
export function decoder(
  route: Route,
  serverMaxBodyBytes: number,
): (ctx: Context, actor: Actor) => DecodeVerdict<HandlerInput> | Promise<DecodeVerdict<HandlerInput>> {
  const takesHeaders = Object.keys(route.headers).length > 0;
  const pattern = servedPath(route);
  const nothing = E.right({});
  const bodySchema = route.body;
  const maxBodyBytes = route.maxBodyBytes ?? serverMaxBodyBytes;
  return (ctx, actor) => {
    const badPath = route.params ? checkPathEncoding(pattern, ctx.path) : undefined;
    if (badPath) return E.left(badPath);
    const params = route.params
      ? decodeParams(route.params, (ctx as Context & { params: Record<string, string> }).params)
      : nothing;
    if (E.isLeft(params)) return params;
    const querystring = ctx.querystring;
    const badQuery = checkQueryEncoding(querystring);
    if (badQuery) return E.left(badQuery);
    const query = decodeQuery(route.query, parsedQuery(querystring));
    if (E.isLeft(query)) return query;
    const headers = takesHeaders ? decodeHeaders(route.headers, ctx.headers) : nothing;
    if (E.isLeft(headers)) return headers;
    const requestId = ctx.state.requestId as string;
    const accept = ctx.req.headers.accept;
    if (!bodySchema) {
      // A body where the endpoint takes none is refused, never ignored (`{"username": "carol"}` must
      // not pass for a request about someone else); what is left of it unread ends the connection.
      if (declaresBody(ctx.req.headers)) {
        ctx.set('Connection', 'close');
        return E.left({ _tag: 'InvalidBodyParameter', names: [], details: 'this endpoint takes no body' });
      }
      return E.right({
        params: params.right,
        query: query.right,
        headers: headers.right,
        body: {},
        additional: {},
        actor,
        requestId,
        accept,
      });
    }
    return readJsonBody(ctx, maxBodyBytes).then((json) => {
      const body = E.isLeft(json) ? json : decodeBody(bodySchema, json.right, route.additionalBody);
      if (E.isLeft(body)) return body;
      const { fields, additional } = body.right;
      return E.right({
        params: params.right,
        query: query.right,
        headers: headers.right,
        body: fields,
        additional,
        actor,
        requestId,
        accept,
      });
    });
  };
}

/** The decode stage of an open row: its query string alone (none given: any parameter is refused). */
export function openDecoder(
  route: Route,
): (ctx: Context) => E.Either<PlacedInputError, OpenRouteInput<Route['query']>> {
  return (ctx) => {
    const querystring = ctx.querystring;
    const badQuery = checkQueryEncoding(querystring);
    if (badQuery) return E.left(badQuery);
    const query = decodeQuery(route.query, parsedQuery(querystring));
    if (E.isLeft(query)) return query;
    return E.right({
      query: query.right,
      requestId: ctx.state.requestId as string,
      origin: `${ctx.protocol}://${ctx.host}`,
    });
  };
}
