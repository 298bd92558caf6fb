import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { SystemPermission } from '../../domain/permissions.js';
import { makeOnce } from '../caching/load-once.js';
import { described } from './codecs.js';
import { consoleRoutes } from './console-page.js';
import { docsRoutes } from './docs-page.js';
import {
  HEALTH_CONTENT_TYPE,
  HEALTH_DOCUMENT_SCHEMA,
  statusCodeOf,
  type Health,
  type HealthDocument,
} from './health.js';
import { openApiDocument, type DocumentContents } from './openapi.js';
import { pageRoutes } from './pages.js';
import { changelogFeed, PACKAGE_VERSION, readChangelog } from './release.js';
import { jsonBytes } from './respond.js';
import {
  API_PREFIX,
  defineOpenRoute,
  defineRoute,
  text,
  type ReferenceSection,
  type Route,
  type RouteTable,
} from './route-table.js';

export interface SystemRouteDependencies {
  /** The Prometheus text exposition of the instance's metrics. */
  readonly metricsText: () => Promise<string>;
}

/** Where the reference lists what is not a family's: monitoring, health, this reference and the change log. */
export const SYSTEM_SECTION: ReferenceSection = {
  name: 'System',
  description:
    "What operators' tools and readers of this reference ask: metrics, health, this document and the change log; all but metrics without a token.",
};

/** What operators' tools read, served where they look for it rather than below /api. */
export function systemRoutes({ metricsText }: SystemRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/metrics',
      outsideApi: true,
      permission: SystemPermission.SystemMetrics,
      summary:
        'Metrics in the Prometheus text format: request durations by method, route pattern and status, rate-limit rejections, ' +
        'verified-token cache hits and misses, calls to outside services by outcome, and the process',
      produces: 'text/plain',
      response: t.string,
      handle: async () => E.right(text(await metricsText())),
    }),
  ];
}

/** A value of ours, sent as the schema says: nothing to check, only to describe. */
const documentOf = <A>(name: string, schema: Record<string, unknown>) =>
  described(
    new t.Type<A, A, unknown>(
      name,
      (_value): _value is A => true,
      t.success as (u: unknown) => t.Validation<A>,
      t.identity,
    ),
    schema,
  );

const HealthAnswer = documentOf<HealthDocument>('a health document', HEALTH_DOCUMENT_SCHEMA);
const HEALTH_ANSWERS = {
  200: 'pass, or warn: serving, with the concerns in its checks',
  503: 'fail: send this instance no work',
};
const answerHealth = (document: HealthDocument) =>
  E.right({ contentType: HEALTH_CONTENT_TYPE, body: document, status: statusCodeOf(document) } as const);

export interface OpenRouteOptions extends DocumentContents {
  /** Whether /console is served (`Console` not in features.disabled); off, it answers 423 code 23. */
  readonly consoleOn?: boolean;
}

/**
 * The endpoints asked without a token, after the table's own: health for load balancers and
 * orchestrators (draft-inadarei-api-health-check), the table's OpenAPI description, the change
 * log, the reference page that shows the description, and the console unless it is turned off.
 */
export function withOpenRoutes(
  table: RouteTable,
  health: Health,
  { consoleOn = true, ...contents }: OpenRouteOptions = {},
): RouteTable {
  // Each built at its first request (together some 25 ms an app) and kept: neither changes while the process runs.
  const description = makeOnce(() => jsonBytes(openApiDocument(whole, API_PREFIX, contents)));
  const changelog = makeOnce(() => readChangelog());
  const open: Route[] = [
    defineOpenRoute({
      method: 'GET',
      path: '/openapi.json',
      summary: 'This document',
      answers: { 200: 'The OpenAPI 3.1 description of the API' },
      produces: 'application/json',
      response: t.UnknownRecord,
      handle: () => E.right({ contentType: 'application/json', body: description(), prepared: true }),
    }),
    defineOpenRoute({
      method: 'GET',
      path: '/changelog',
      summary: 'What each version added, changed and removed, as an RSS 2.0 feed',
      answers: { 200: 'The change log' },
      produces: 'application/rss+xml',
      response: t.string,
      // The feed names where it is served, as the client reached it.
      handle: ({ origin }) =>
        E.right({
          contentType: 'application/rss+xml',
          body: changelogFeed(changelog(), `${origin}${API_PREFIX}/changelog`),
          prepared: true,
        }),
    }),
    defineOpenRoute({
      method: 'GET',
      path: '/livez',
      outsideApi: true,
      summary: 'Liveness: the process answers',
      answers: HEALTH_ANSWERS,
      produces: HEALTH_CONTENT_TYPE,
      response: HealthAnswer,
      handle: () => answerHealth(health.live()),
    }),
    defineOpenRoute({
      method: 'GET',
      path: '/readyz',
      outsideApi: true,
      summary: 'Readiness: each dependency answers within 1 s and the instance is not stopping',
      answers: HEALTH_ANSWERS,
      produces: HEALTH_CONTENT_TYPE,
      response: HealthAnswer,
      handle: async () => answerHealth(await health.ready()),
    }),
    ...docsRoutes(),
    ...pageRoutes(PACKAGE_VERSION, changelog, consoleOn),
    ...consoleRoutes(consoleOn),
  ];
  const whole: RouteTable = {
    ...table,
    routes: [...table.routes, ...open.map((route) => ({ ...route, section: SYSTEM_SECTION.name }))],
    sections: [...(table.sections ?? []).filter(({ name }) => name !== SYSTEM_SECTION.name), SYSTEM_SECTION],
  };
  return whole;
}
