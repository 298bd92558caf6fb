import { errorCatalogue } from '../../domain/errors.js';
import { errorResponsesOf, REQUEST_ID_HEADER } from './openapi-errors.js';
import { REFERENCE_INTRODUCTION } from './openapi-introduction.js';
import { openApiPath, operation } from './openapi-operation.js';
import { PACKAGE_VERSION } from './release.js';
import { exampleRequestOf, type RouteSampleTable } from './route-samples.js';
import { servedPath, type Route, type RouteTable } from './route-table.js';

/**
 * The OpenAPI 3.1 description of the route table: the same rows that register the routes, so
 * the document cannot drift from what is served. `x-permission` names what each operation needs;
 * the families' samples give each operation its example request.
 */
export function openApiDocument(
  table: RouteTable,
  prefix: string,
  samples: RouteSampleTable = {},
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const describe = (route: Route): void => {
    (paths[openApiPath(servedPath(route))] ??= {})[route.method.toLowerCase()] = operation(
      route,
      exampleRequestOf(samples[`${route.method} ${route.path}`]),
    );
  };
  table.routes.filter((route) => !route.open).forEach(describe);
  for (const redirect of table.redirects) {
    const operations = (paths[prefix + openApiPath(redirect.from)] ??= {});
    const target = table.routes.find((route) => route.method === redirect.method && route.path === redirect.to);
    // The query string goes along: the new place's query parameters, so that "Try it out" reaches it whole.
    const query =
      target &&
      (operation(target, exampleRequestOf(samples[`${target.method} ${target.path}`])) as {
        parameters?: { in: string }[];
      });
    const parameters = (query?.parameters ?? []).filter((parameter) => parameter.in === 'query');
    operations[redirect.method.toLowerCase()] = {
      ...(redirect.section !== undefined && { tags: [redirect.section] }),
      summary: `Moved to ${prefix}${redirect.to}`,
      deprecated: true,
      // Asked without a token; a client that follows the redirect sends the new place the token it asks for.
      security: target && !target.open ? [{}, { bearer: [] }] : [],
      ...(parameters.length > 0 && { parameters }),
      responses: {
        308: {
          description: `Permanent redirect to ${prefix}${redirect.to}, query string kept`,
          headers: {
            ...REQUEST_ID_HEADER,
            Location: { required: true, description: 'the new place', schema: { type: 'string' } },
          },
        },
        // A query so long that the new place would not fit in a header a client reads.
        ...errorResponsesOf(['RedirectTargetTooLong']),
      },
    };
  }
  // Those asked without a token after the rest, where the document has always listed them.
  table.routes.filter((route) => route.open && !route.undocumented).forEach(describe);
  const responses = sharedErrorResponses(paths);
  return {
    openapi: '3.1.0',
    info: { title: 'utility-api', version: PACKAGE_VERSION, description: REFERENCE_INTRODUCTION },
    servers: [{ url: '/', description: 'the server that serves this document' }],
    // One per family, in the order of the docs: Swagger UI lists the operations under them.
    tags: (table.sections ?? []).map(({ name, description }) => ({ name, description })),
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
      responses,
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
          },
        },
      },
    },
  };
}

/**
 * Each error answer written once, under components, and named by its status and codes
 * (`Error400-7-11`), with every operation that can give it pointing there. Many operations give the
 * same ones (401, 403, 429, 503 are everyone's): the document is a fraction of the size, and
 * Swagger UI, which resolves an operation's whole subtree when a reader opens it, opened one in
 * about 1 s instead of 2.3 s on this 2-core machine (measured with Chromium on the same page,
 * the shared form against the repeated one, four operations each).
 */
function sharedErrorResponses(paths: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const shared: Record<string, unknown> = {};
  const names = new Map<string, string>();
  for (const operations of Object.values(paths))
    for (const operation of Object.values(operations) as { responses: Record<string, unknown> }[])
      for (const [status, response] of Object.entries(operation.responses)) {
        const codes = codesOf(response);
        if (Number(status) < 400 || codes === undefined) continue;
        const written = JSON.stringify(response);
        let name = names.get(written);
        if (name === undefined) {
          // Two answers of one status and codes may still differ (429 code 25: a rate limit, a quota, or both).
          const base = `Error${status}-${[...new Set(codes)].join('-')}`;
          name = base;
          for (let variant = 2; name in shared; variant += 1) name = `${base}-v${variant}`;
          names.set(written, name);
          shared[name] = response;
        }
        operation.responses[status] = { $ref: `#/components/responses/${name}` };
      }
  return shared;
}

/** The codes an error answer lists, as errorResponsesOf writes them; undefined for another answer (readiness's 503). */
function codesOf(response: unknown): number[] | undefined {
  const schema = (response as { content?: Record<string, { schema?: { allOf?: unknown[] } }> }).content?.[
    'application/json'
  ]?.schema;
  const oneOf = (schema?.allOf?.[1] as { oneOf?: { properties: { code: { const: number } } }[] } | undefined)?.oneOf;
  return oneOf?.map((entry) => entry.properties.code.const);
}
