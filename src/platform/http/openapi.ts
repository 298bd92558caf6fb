import { errorCatalogue } from '../../domain/errors.js';
import { errorResponsesOf, REQUEST_ID_HEADER, SharedErrorResponses } from './openapi-errors.js';
import { REFERENCE_INTRODUCTION } from './openapi-introduction.js';
import { openApiPath, operation, parameters } from './openapi-operation.js';
import { PACKAGE_VERSION } from './release.js';
import { exampleRequestOf, type AnswerExampleTable, type RouteSampleTable } from './route-samples.js';
import { servedPath, type Route, type RouteTable } from './route-table.js';

/** What the document shows beside the route table's own rows. */
export interface DocumentContents {
  /** The families' samples, whose well-formed values are the example requests. */
  readonly samples?: RouteSampleTable;
  /** What each operation answered its example request, shown beside its successes. */
  readonly answers?: AnswerExampleTable;
  /** Every permission of the installation, in its catalogue's order (`x-permissions`). */
  readonly permissions?: readonly string[];
}

/**
 * The OpenAPI 3.1 description of the route table: the same rows that register the routes, so
 * the document cannot drift from what is served. `x-permission` names what each operation needs,
 * and `x-permissions` at the top every permission a user or token may hold (some are checked by
 * the use cases rather than asked by an operation: Users::Block, Tokens::Update); the families'
 * samples give each operation its example request, and `answers` what it answered.
 */
export function openApiDocument(
  table: RouteTable,
  prefix: string,
  { samples = {}, answers = {}, permissions }: DocumentContents = {},
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const shared = new SharedErrorResponses();
  const examplesOf = (route: Route) => exampleRequestOf(samples[`${route.method} ${route.path}`]);
  const describe = (route: Route): void => {
    (paths[openApiPath(servedPath(route))] ??= {})[route.method.toLowerCase()] = operation(
      route,
      examplesOf(route),
      answers[`${route.method} ${route.path}`] ?? {},
      shared,
    );
  };
  table.routes.filter((route) => !route.open).forEach(describe);
  for (const redirect of table.redirects) {
    const operations = (paths[prefix + openApiPath(redirect.from)] ??= {});
    const target = table.routes.find((route) => route.method === redirect.method && route.path === redirect.to);
    // The query string goes along: the new place's query parameters, so that "Try it out" reaches it whole.
    const passedOn = target ? parameters('query', target.query, examplesOf(target)) : [];
    operations[redirect.method.toLowerCase()] = {
      ...(redirect.section !== undefined && { tags: [redirect.section] }),
      summary: `Moved to ${prefix}${redirect.to}`,
      deprecated: true,
      // Asked without a token; a client that follows the redirect sends the new place the token it asks for.
      security: target && !target.open ? [{}, { bearer: [] }] : [],
      ...(passedOn.length > 0 && { parameters: passedOn }),
      responses: {
        308: {
          description: `Permanent redirect to ${prefix}${redirect.to}, query string kept`,
          headers: {
            ...REQUEST_ID_HEADER,
            Location: { required: true, description: 'the new place', schema: { type: 'string' } },
          },
        },
        // A query so long that the new place would not fit in a header a client reads.
        ...errorResponsesOf(['RedirectTargetTooLong'], shared),
      },
    };
  }
  // Those asked without a token after the rest, where the document has always listed them.
  table.routes.filter((route) => route.open && !route.undocumented).forEach(describe);
  return {
    openapi: '3.1.0',
    info: { title: 'utility-api', version: PACKAGE_VERSION, description: REFERENCE_INTRODUCTION },
    servers: [{ url: '/', description: 'the server that serves this document' }],
    // One per family, in the order of the docs: Swagger UI lists the operations under them.
    tags: (table.sections ?? []).map(({ name, description }) => ({ name, description })),
    ...(permissions !== undefined && { 'x-permissions': permissions }),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        basic: {
          type: 'http',
          scheme: 'basic',
          description: 'username or email, and password: only where an operation lists it',
        },
      },
      responses: shared.responses,
      headers: {
        RequestId: {
          required: true,
          description:
            'the id of this request in the server log: the one the client sent in X-Request-Id when sane, a new one otherwise',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message'],
          additionalProperties: false,
          properties: {
            // A code may stand for several conditions (tags), each with a message of its own.
            code: { type: 'integer', enum: [...new Set(Object.values(errorCatalogue).map((entry) => entry.code))] },
            message: { type: 'string' },
            details: { type: 'string' },
            suggestions: {
              type: 'array',
              items: { type: 'string' },
              description:
                'on a 404 code 22 of the dictionary for a word it does not know: up to five words it knows spelled closest to it, the closest and then the most used first (possibly none)',
            },
          },
        },
      },
    },
  };
}
