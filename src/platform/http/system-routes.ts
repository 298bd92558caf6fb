import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { Permission } from '../../domain/permissions.js';
import { defineRoute, text, type Route } from './route-table.js';

export interface SystemRouteDependencies {
  /** The Prometheus text exposition of the instance's metrics. */
  readonly metricsText: () => Promise<string>;
}

/** What operators' tools read, served where they look for it rather than below /api. */
export function systemRoutes({ metricsText }: SystemRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/metrics',
      outsideApi: true,
      permission: Permission.SystemMetrics,
      summary:
        'Metrics in the Prometheus text format: request durations by method, route pattern and status, rate-limit rejections, ' +
        'verified-token cache hits and misses, calls to outside services by outcome, and the process',
      produces: 'text/plain',
      response: t.string,
      handle: async () => E.right(text(await metricsText())),
    }),
  ];
}
