import type { Redirect, Route } from '../platform/http/route-table.js';
import type { UpstreamCallCounter } from '../platform/upstream/upstream-client.js';

/**
 * Identifiers of what only the composition root and transports know about. The whole AppConfig is
 * deliberately not among them: each module is handed its own settings.
 */
export const Log = Symbol.for('Logger');
export const Database = Symbol.for('Database');
export const Routes = Symbol.for('RouteTable');
/** The access-change feed of the storage alone, before any other is added beside it. */
export const StoredAccessChangeFeed = Symbol.for('StoredAccessChangeFeed');
export const HttpApp = Symbol.for('HttpApp');
/** `/livez` and `/readyz`, and the stop that makes readiness fail first. */
export const InstanceHealth = Symbol.for('InstanceHealth');
/** The one OutboundGuard every connection an outside party can aim goes through. */
export const OutboundConnections = Symbol.for('OutboundConnections');
/** Where every family that calls an upstream reports each call, for the metrics. */
export const UpstreamCalls = Symbol.for('UpstreamCalls');
export type UpstreamCalls = UpstreamCallCounter;

/** What one family adds to the HTTP route table; every family module binds one. */
export interface RouteContribution {
  readonly routes: readonly Route[];
  readonly redirects?: readonly Redirect[];
}
export const RouteContribution = Symbol.for('RouteContribution');

/**
 * The identifier of one family's use cases bound as a whole, what a library user receives (see
 * library.ts). It carries their type, so that the library's answer is typed from the family list
 * alone; it is a symbol like every other identifier.
 */
export type UseCasesIdentifier<UseCases> = symbol & { readonly useCasesOf?: UseCases };
export const useCasesIdentifier = <UseCases>(name: string): UseCasesIdentifier<UseCases> =>
  Symbol.for(name) as UseCasesIdentifier<UseCases>;
