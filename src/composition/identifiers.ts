import type { Redirect, Route } from '../adapters/http/route-table.js';

/**
 * Identifiers of what only the composition root and transports know about. The whole AppConfig is
 * deliberately not among them: each module is handed its own settings.
 */
export const Log = Symbol.for('Logger');
export const Database = Symbol.for('Database');
export const Routes = Symbol.for('RouteTable');
export const HttpApp = Symbol.for('HttpApp');

/** What one family adds to the HTTP route table; every family module binds one. */
export interface RouteContribution {
  readonly routes: readonly Route[];
  readonly redirects?: readonly Redirect[];
}
export const RouteContribution = Symbol.for('RouteContribution');
