import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { Actor } from '../../domain/identity/actor.js';
import type { CatalogueTag, DomainError } from '../../domain/errors.js';
import { permissionFamilyOf, type Permission } from '../../domain/permissions.js';
import type {
  AdditionalBody,
  BodySchema,
  Decoded,
  HeaderSchema,
  InputPlace,
  ParamSchema,
  QuerySchema,
} from './fields.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where the API's endpoints are served. */
export const API_PREFIX = '/api';

interface WithHeaders {
  readonly headers?: Readonly<Record<string, string>>;
}
/** Text, or an answer also given as JSON written as XML or YAML (see negotiation.ts). */
export type TextBody = {
  readonly contentType: 'text/plain' | 'application/xml' | 'application/yaml';
  readonly body: string;
} & WithHeaders;
export type JsonBody<J> = { readonly contentType: 'application/json'; readonly body: J } & WithHeaders;
/** A health document (draft-inadarei-api-health-check), with the status it is answered with. */
export type HealthBody<J> = {
  readonly contentType: 'application/health+json';
  readonly body: J;
  /** One of the row's `answers`: 200 while serving, 503 when this instance should get no work. */
  readonly status: number;
} & WithHeaders;
/** Sent as it is: the reference page and its files, the change log's feed, a JSON document encoded once. */
export type PreparedBody = {
  readonly contentType: 'text/html' | 'text/javascript' | 'text/css' | 'application/rss+xml' | 'application/json';
  readonly body: string | Buffer;
  readonly prepared: true;
} & WithHeaders;
export type ImageBody = (
  | { readonly contentType: 'image/svg+xml'; readonly body: string }
  | { readonly contentType: 'image/png'; readonly body: Buffer }
) &
  WithHeaders;

/** A success as sent; `J` is what a JSON body holds, the type of the row's response codec. */
export type ResponseBody<J = unknown> = TextBody | JsonBody<J> | ImageBody | HealthBody<J> | PreparedBody;

export type ContentType = ResponseBody['contentType'];

export interface RouteInput<
  Q extends QuerySchema,
  H extends HeaderSchema,
  B extends BodySchema,
  P extends ParamSchema = ParamSchema,
> {
  readonly params: Decoded<P>;
  readonly query: Decoded<Q>;
  readonly headers: Decoded<H>;
  readonly body: Decoded<B>;
  /** The body's properties beyond its declared fields, on a route that takes them (`additionalBody`); else empty. */
  readonly additional: Readonly<Record<string, unknown>>;
  /** Who asks: the holder of the bearer token, or on a `passwordLogin` route a user who gave their password. */
  readonly actor: Actor;
  /** The request's id, for use cases that call out and log what failed there. */
  readonly requestId: string;
  /**
   * The Accept header as sent, for a route that offers several formats. Not a field: OpenAPI
   * describes it by the response's content types, and no value of it is refused.
   */
  readonly accept: string | undefined;
}

/** What an open row's handler reads: its query, and where the client reached the server. */
export interface OpenRouteInput<Q extends QuerySchema> {
  readonly query: Decoded<Q>;
  readonly requestId: string;
  /** `http://host:port` as the client reached it, for an answer that names where it is served. */
  readonly origin: string;
}

/** One endpoint as data: enough to register it, authorise it, decode it and document it. */
export interface Route<
  Q extends QuerySchema = QuerySchema,
  H extends HeaderSchema = HeaderSchema,
  B extends BodySchema = BodySchema,
  P extends ParamSchema = ParamSchema,
  A = unknown,
> {
  readonly method: HttpMethod;
  /** Below `/api` (see `outsideApi`), in @koa/router syntax. */
  readonly path: string;
  /** Served at the server's root rather than below `/api`: where monitoring tools look for it (`/metrics`). */
  readonly outsideApi?: true;
  /**
   * Asked without a token, by load balancers and by readers of the reference (see `defineOpenRoute`):
   * no authentication and no rate limit; nothing is read but the query string; never turned off.
   */
  readonly open?: true;
  /** Left out of the OpenAPI document: the page that shows the document, no part of the API itself. */
  readonly undocumented?: true;
  /** What the token must grant; null when any valid token may call it (the use case checks the rest). */
  readonly permission: Permission | null;
  /**
   * The permission family it belongs to where `permission` does not say (null): what
   * `features.disabled` names to turn it off.
   */
  readonly family?: string;
  /** Turned off on this installation (`features.disabled`): answered 423 code 23 before anything else. */
  readonly disabled?: true;
  /**
   * Also takes `Authorization: Basic` (username or email, and password) instead of a token: the
   * use case then acts for that user, and `permission` is not asked of them.
   */
  readonly passwordLogin?: true;
  readonly summary: string;
  /** The section of the reference it is listed under (its family's name): given when the table is assembled. */
  readonly section?: string;
  /** Path parameters (`:name` in the path); absent when the path has none. */
  readonly params?: P;
  readonly query: Q;
  readonly headers: H;
  /** A JSON object body with these fields; undefined for endpoints that take no body. */
  readonly body?: B;
  /**
   * Properties a body may carry beyond its declared fields, passed on to the use case under
   * `additional` (which judges them); without it, such properties are refused as unknown fields.
   */
  readonly additionalBody?: AdditionalBody;
  /** The largest JSON body this endpoint reads, where it takes more than the server's `http.maxBodyBytes`. */
  readonly maxBodyBytes?: number;
  /**
   * Where a field its use case names came from, for the code of a missing or invalid one, where
   * the schemas do not say or say otherwise. A path parameter counts as a query parameter unless
   * named here; a field of no schema, as a body field where there is a body, else a query one.
   */
  readonly fieldPlaces?: Readonly<Record<string, InputPlace>>;
  readonly status: number;
  /** What each status an answer of the handler may have means, for the document; else `status`, "Success". */
  readonly answers?: Readonly<Record<number, string>>;
  /** What a success carries; a list when the caller chooses (a barcode as PNG or SVG). */
  readonly produces: ContentType | readonly ContentType[];
  /** The success body, for the OpenAPI document (the JSON, the text, or the image's bytes). */
  readonly response: t.Decoder<unknown, A>;
  /** Headers a success carries beyond those of every answer, for the OpenAPI document. */
  readonly responseHeaders?: HeaderSchema;
  /**
   * The errors this endpoint's own work can answer, beyond those of every endpoint (authentication,
   * an outage, a request the server cannot read) and those its fields imply (missing or invalid).
   */
  readonly errors: readonly CatalogueTag[];
  /** Its JSON is of the response codec's type: the compiler holds the handler to what the document says. */
  readonly handle: (
    input: RouteInput<Q, H, B, P>,
  ) => E.Either<DomainError, ResponseBody<NoInfer<A>>> | Promise<E.Either<DomainError, ResponseBody<NoInfer<A>>>>;
}

/** A row as written: what most endpoints share is left out. */
export type RouteRow<
  Q extends QuerySchema,
  H extends HeaderSchema,
  B extends BodySchema,
  P extends ParamSchema,
  A,
> = Omit<Route<Q, H, B, P, A>, 'query' | 'headers' | 'status' | 'produces' | 'errors' | 'open'> &
  Partial<Pick<Route<Q, H, B, P, A>, 'query' | 'headers' | 'status' | 'produces' | 'errors'>>;

/** A path that moved: answered with 308 to its new place, query string kept. */
export interface Redirect {
  readonly method: HttpMethod;
  readonly from: string;
  readonly to: string;
  /** As `Route.section`. */
  readonly section?: string;
}

/** One part of the reference: a family's operations, under its name and what it is for, in one line. */
export interface ReferenceSection {
  readonly name: string;
  readonly description: string;
}

export interface RouteTable {
  readonly routes: readonly Route[];
  readonly redirects: readonly Redirect[];
  /** The reference's sections, in the order it shows them; each route and redirect names one. */
  readonly sections?: readonly ReferenceSection[];
}

/** The routes and redirects of each section, marked with it, as one table whose sections come in the order given. */
export function tableOfSections(
  parts: readonly { section: ReferenceSection; routes: readonly Route[]; redirects?: readonly Redirect[] }[],
): RouteTable {
  const sections = new Map<string, ReferenceSection>();
  for (const { section } of parts) if (!sections.has(section.name)) sections.set(section.name, section);
  return {
    routes: parts.flatMap(({ section, routes }) => routes.map((route) => ({ ...route, section: section.name }))),
    redirects: parts.flatMap(({ section, redirects }) =>
      (redirects ?? []).map((redirect) => ({ ...redirect, section: section.name })),
    ),
    sections: [...sections.values()],
  };
}

/**
 * Keeps each schema's type tied to the handler's input while the table stays a plain list, and
 * fills in what a row leaves out: no query or headers, 200 with JSON, no errors of its own.
 */
export const defineRoute = <
  Q extends QuerySchema = Record<never, never>,
  H extends HeaderSchema = Record<never, never>,
  B extends BodySchema = BodySchema,
  P extends ParamSchema = ParamSchema,
  A = unknown,
>(
  row: RouteRow<Q, H, B, P, A>,
): Route => {
  const inPath = [...row.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
  const declared = Object.keys(row.params ?? {});
  if (inPath.join() !== declared.join()) {
    throw new Error(
      `${row.method} ${row.path} declares the path parameters [${declared.join(', ')}], its path has [${inPath.join(', ')}]`,
    );
  }
  return { query: {}, headers: {}, status: 200, produces: 'application/json', errors: [], ...row } as unknown as Route;
};

/** An open row as written: no permission, no fields but the query, a handler that is told no actor. */
export type OpenRouteRow<Q extends QuerySchema, A> = Pick<
  Route<Q, Record<never, never>, BodySchema, ParamSchema, A>,
  'method' | 'path' | 'outsideApi' | 'undocumented' | 'summary' | 'answers' | 'produces' | 'response'
> & {
  readonly query?: Q;
  readonly handle: (
    input: OpenRouteInput<Q>,
  ) => E.Either<DomainError, ResponseBody<NoInfer<A>>> | Promise<E.Either<DomainError, ResponseBody<NoInfer<A>>>>;
};

/**
 * A row anyone may ask (see `Route.open`): it belongs to the System family, answers 200 unless
 * its handler says otherwise, and documents no error beyond a query string it cannot take.
 */
export const defineOpenRoute = <Q extends QuerySchema = Record<never, never>, A = unknown>(
  row: OpenRouteRow<Q, A>,
): Route =>
  ({
    query: {},
    headers: {},
    status: 200,
    errors: [],
    ...row,
    open: true,
    permission: null,
    family: 'System',
  }) as unknown as Route;

/** The permission family a route belongs to: its permission's, else the one it names. */
export const familyOfRoute = (route: Pick<Route, 'permission' | 'family' | 'method' | 'path'>): string => {
  const family = route.permission === null ? route.family : permissionFamilyOf(route.permission);
  if (family === undefined)
    throw new Error(`${route.method} ${route.path} needs no permission, so it must name its family`);
  return family;
};

/** The table with the routes of the families named marked as turned off. */
export const withFamiliesDisabled = (table: RouteTable, families: readonly string[]): RouteTable =>
  families.length === 0
    ? table
    : {
        ...table,
        // An open row stays on: monitoring and the reference answer whatever is turned off.
        routes: table.routes.map((route) =>
          !route.open && families.includes(familyOfRoute(route)) ? { ...route, disabled: true } : route,
        ),
      };

/** What comes before a route's path: `/api`, or nothing for a route served outside it. */
export const prefixOf = (route: Pick<Route, 'outsideApi'>): string => (route.outsideApi ? '' : API_PREFIX);
/** The path a route is served at, its prefix included. */
export const servedPath = (route: Pick<Route, 'path' | 'outsideApi'>): string => prefixOf(route) + route.path;

/** Where each field of a route's requests came from (see `Route.fieldPlaces`). */
export function fieldPlacesOf(route: Route): (field: string) => InputPlace {
  const places = new Map<string, InputPlace>();
  for (const name of Object.keys(route.params ?? {})) places.set(name, 'query');
  for (const name of Object.keys(route.query)) places.set(name, 'query');
  for (const name of Object.keys(route.headers)) places.set(name, 'header');
  for (const name of Object.keys(route.body ?? {})) places.set(name, 'body');
  for (const [name, place] of Object.entries(route.fieldPlaces ?? {})) places.set(name, place);
  const otherwise: InputPlace = route.body ? 'body' : 'query';
  return (field) => places.get(field) ?? otherwise;
}

export const json = <J>(body: J): JsonBody<J> => ({ contentType: 'application/json', body });
export const text = (body: string): TextBody => ({ contentType: 'text/plain', body });

/** A use case's outcome answered as JSON, keeping the type its success has (`E.map(json)` would lose it). */
export const jsonOf = <A>(outcome: E.Either<DomainError, A>): E.Either<DomainError, JsonBody<A>> =>
  E.isLeft(outcome) ? outcome : E.right(json(outcome.right));

/** The permission list as the router knows it: one row per endpoint that names one. */
export const permissionsOf = (
  table: RouteTable,
): { permission: Permission; method: HttpMethod; path: string; summary: string }[] =>
  table.routes.flatMap((route) =>
    route.permission === null
      ? []
      : [{ permission: route.permission, method: route.method, path: servedPath(route), summary: route.summary }],
  );
