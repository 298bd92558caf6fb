import * as E from 'fp-ts/lib/Either.js';
import type { Context } from 'koa';
import type { CatalogueError, DomainError, PlacedInputError } from '../../domain/errors.js';
import type { PasswordAuthentication, RateLimiter, TokenAuthentication } from '../pipeline/ports.js';
import { authenticator } from './authenticate-stage.js';
import { clientAddressOf } from './client-address.js';
import { decoder, openDecoder } from './decode-stage.js';
import { placed, type InputPlace } from './fields.js';
import { announceStanding } from './rate-limit-fields.js';
import { respond } from './respond.js';
import { familyOfRoute, fieldPlacesOf, servedPath, type OpenRouteInput, type Route } from './route-table.js';

/** What the stages of every endpoint share. */
export interface Stages {
  readonly authenticate: TokenAuthentication;
  readonly logIn: PasswordAuthentication;
  readonly rateLimiter: RateLimiter;
  readonly maxBodyBytes: number;
  /** Answers an error, logging the outage behind it if there is one. */
  readonly fail: (ctx: Context, error: CatalogueError, acceptsPassword?: boolean) => void;
}

/** The domain names the fields of refused input; the route knows where each came from. */
const asAnswered = (error: DomainError | PlacedInputError, placeOf: (field: string) => InputPlace): CatalogueError =>
  error._tag === 'MissingInput' || error._tag === 'InvalidInput'
    ? placed(error, placeOf(error.fields[0] ?? ''))
    : error;

/** What a part of the service turned off on this installation answers (423 code 23). */
export const turnedOff = (family: string): DomainError => ({
  _tag: 'EndpointDisabled',
  details: `The ${family} endpoints are turned off on this installation (features.disabled)`,
});

/** One endpoint of the table: an open row's, or one that asks who calls (see `guardedEndpoint`). */
export const endpoint = (route: Route, stages: Stages): ((ctx: Context) => Promise<void>) =>
  route.open ? openEndpoint(route, stages) : guardedEndpoint(route, stages);

/**
 * An open row: decode its query → handle, then the answer. Nobody is asked for a token and no
 * limit is counted: load balancers, monitoring and the reference page must always be answered.
 */
function openEndpoint(route: Route, { fail }: Stages): (ctx: Context) => Promise<void> {
  const operation = `${route.method} ${servedPath(route)}`;
  const decode = openDecoder(route);
  // Made by defineOpenRoute, whose handler is given no actor.
  const handle = route.handle as unknown as (input: OpenRouteInput<Route['query']>) => ReturnType<Route['handle']>;
  return async (ctx: Context): Promise<void> => {
    ctx.state.operation = operation;
    const input = decode(ctx);
    if (E.isLeft(input)) return fail(ctx, input.left);
    const handled = handle(input.right);
    const result = handled instanceof Promise ? await handled : handled;
    if (E.isLeft(result))
      return fail(
        ctx,
        asAnswered(result.left, () => 'query'),
      );
    respond(ctx, route.status, result.right);
  };
}

/**
 * One endpoint: authenticate → rate limit → decode → handle, then the answer. Each stage gives a
 * value when it can and a promise only when it must wait, so that the common request (a cached
 * token, no body, a synchronous use case) waits for nothing but itself.
 */
function guardedEndpoint(route: Route, stages: Stages): (ctx: Context) => Promise<void> {
  const operation = `${route.method} ${servedPath(route)}`;
  const identify = authenticator(route, stages);
  const decode = decoder(route, stages.maxBodyBytes);
  const { rateLimiter } = stages;
  // A refused key on a route that also takes a password is answered offering Basic beside Bearer.
  const acceptsPassword = route.passwordLogin === true;
  const placeOf = fieldPlacesOf(route);
  const fail = (ctx: Context, error: DomainError | PlacedInputError, offerBasic = false): void =>
    stages.fail(ctx, asAnswered(error, placeOf), offerBasic);
  if (route.disabled) {
    const refusal = turnedOff(familyOfRoute(route));
    return async (ctx: Context): Promise<void> => {
      ctx.state.operation = operation;
      fail(ctx, refusal);
    };
  }
  return async (ctx: Context): Promise<void> => {
    ctx.state.operation = operation;
    const identified = identify(ctx);
    const actor = identified instanceof Promise ? await identified : identified;
    if (E.isLeft(actor)) return fail(ctx, actor.left, acceptsPassword);
    // For the token request observers of the last stage.
    if (actor.right.kind === 'principal') ctx.state.principal = actor.right.principal;
    const admitted = rateLimiter.admit(operation, actor.right, clientAddressOf(ctx));
    const standing = admitted instanceof Promise ? await admitted : admitted;
    if (standing) {
      announceStanding(ctx.res, standing);
      if (standing.refusal) return fail(ctx, standing.refusal);
    }
    const decoded = decode(ctx, actor.right);
    const input = decoded instanceof Promise ? await decoded : decoded;
    if (E.isLeft(input)) return fail(ctx, input.left);
    const handled = route.handle(input.right);
    const result = handled instanceof Promise ? await handled : handled;
    if (E.isLeft(result)) return fail(ctx, result.left);
    respond(ctx, route.status, result.right);
  };
}
