import { errorCatalogue } from '../../domain/errors.js';
import { errorResponsesOf, REQUEST_ID_HEADER } from './openapi-errors.js';
import { openApiPath, operation } from './openapi-operation.js';
import { PACKAGE_VERSION } from './release.js';
import { servedPath, type Route, type RouteTable } from './route-table.js';

/**
 * The OpenAPI 3.1 description of the route table: the same rows that register the routes, so
 * the document cannot drift from what is served. `x-permission` names what each operation needs.
 */
export function openApiDocument(table: RouteTable, prefix: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const describe = (route: Route): void => {
    (paths[openApiPath(servedPath(route))] ??= {})[route.method.toLowerCase()] = operation(route);
  };
  table.routes.filter((route) => !route.open).forEach(describe);
  for (const redirect of table.redirects) {
    const operations = (paths[prefix + openApiPath(redirect.from)] ??= {});
    operations[redirect.method.toLowerCase()] = {
      summary: `Moved to ${prefix}${redirect.to}`,
      deprecated: true,
      security: [],
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
  return {
    openapi: '3.1.0',
    info: { title: 'utility-api', version: PACKAGE_VERSION },
    servers: [{ url: '/', description: 'the server that serves this document' }],
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
