import type * as E from 'fp-ts/lib/Either.js';
import type { Principal } from '../../domain/auth/verified-token-cache.js';
import type { DomainError } from '../../domain/errors.js';
import type { QueryOf, QuerySchema } from './query.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ResponseBody = { readonly contentType: 'text/plain'; readonly body: string } | { readonly contentType: 'application/json'; readonly body: unknown };

export interface RouteInput<S extends QuerySchema> {
  readonly query: QueryOf<S>;
  readonly principal: Principal;
}

/** One endpoint as data: enough to register it, authorise it, decode it and document it. */
export interface Route<S extends QuerySchema = QuerySchema> {
  readonly method: HttpMethod;
  /** Below `/api`, in @koa/router syntax. */
  readonly path: string;
  readonly permission: string;
  readonly summary: string;
  readonly query: S;
  readonly status: number;
  readonly produces: ResponseBody['contentType'];
  readonly handle: (input: RouteInput<S>) => E.Either<DomainError, ResponseBody> | Promise<E.Either<DomainError, ResponseBody>>;
}

/** A path that moved: answered with 308 to its new place, query string kept. */
export interface Redirect {
  readonly method: HttpMethod;
  readonly from: string;
  readonly to: string;
}

export interface RouteTable {
  readonly routes: readonly Route[];
  readonly redirects: readonly Redirect[];
}

/** Keeps the query schema's type tied to the handler's input while the table stays a plain list. */
export const defineRoute = <S extends QuerySchema>(route: Route<S>): Route => route as unknown as Route;

/** The permission list as the router knows it: one row per endpoint. */
export const permissionsOf = (table: RouteTable): { permission: string; method: HttpMethod; path: string; summary: string }[] =>
  table.routes.map(({ permission, method, path, summary }) => ({ permission, method, path: `/api${path}`, summary }));
