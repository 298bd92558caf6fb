import * as E from 'fp-ts/lib/Either.js';
import type { Context } from 'koa';
import type { RequestOrigin } from '../../domain/audit.js';
import type { DomainError } from '../../domain/errors.js';
import { actorFor, type Actor } from '../../domain/identity/actor.js';
import type { Principal } from '../../domain/identity/principal.js';
import type { PasswordAuthentication, TokenAuthentication } from '../pipeline/ports.js';
import { addressRefusal } from './address-allowlist.js';
import { clientAddressOf, throttledClientOf } from './client-address.js';
import { presentedSecret, type Presented } from './credentials.js';
import type { Route } from './route-table.js';

type Verdict<A> = E.Either<DomainError, A>;

/**
 * The actor of a request that presents something other than a bearer token: a user by their
 * password on a route that takes one; anywhere else that is no API key, as it always was.
 */
function passwordActor(
  route: Route,
  presented: Exclude<Presented, { kind: 'bearer' | 'none' }>,
  ctx: Context,
  logIn: PasswordAuthentication,
): Promise<Verdict<Actor>> {
  if (presented.kind === 'basic' && route.passwordLogin) {
    return logIn.execute({
      login: presented.login,
      password: presented.password,
      clientAddress: throttledClientOf(clientAddressOf(ctx)),
      origin: originOf(ctx),
    });
  }
  return Promise.resolve(E.left({ _tag: 'InvalidApiKey' }));
}

/** The actor of a verified token, unless the token is bound to client networks the request did not come from. */
const principalActor = (verdict: Verdict<Principal>, ctx: Context): Verdict<Actor> => {
  if (E.isLeft(verdict)) return verdict;
  if (verdict.right.token.allowedAddresses !== null || verdict.right.through) {
    const refused = addressRefusal(verdict.right, clientAddressOf(ctx));
    if (refused) return E.left(refused);
  }
  return E.right(actorFor(verdict.right, originOf(ctx)));
};

/**
 * Where the request came from, as the audit trail records it: read only when an entry is written,
 * as most requests write none.
 */
class RequestOriginOf implements RequestOrigin {
  constructor(private readonly ctx: Context) {}

  get address(): string {
    return clientAddressOf(this.ctx);
  }

  get requestId(): string | null {
    return (this.ctx.state.requestId as string | undefined) ?? null;
  }
}
const originOf = (ctx: Context): RequestOrigin => new RequestOriginOf(ctx);

/** The authenticate stage of a route: who asks, by bearer token or, where the route takes one, by password. */
export function authenticator(
  route: Route,
  { authenticate, logIn }: { readonly authenticate: TokenAuthentication; readonly logIn: PasswordAuthentication },
): (ctx: Context) => Verdict<Actor> | Promise<Verdict<Actor>> {
  return (ctx) => {
    const presented = presentedSecret(ctx.req.headers.authorization);
    if (presented.kind !== 'bearer' && presented.kind !== 'none') return passwordActor(route, presented, ctx, logIn);
    const verdict = authenticate.execute(presented.kind === 'bearer' ? presented.secret : undefined, route.permission);
    // Most requests come with a recently verified token: no promise to wait for then.
    return verdict instanceof Promise
      ? verdict.then((settled) => principalActor(settled, ctx))
      : principalActor(verdict, ctx);
  };
}
