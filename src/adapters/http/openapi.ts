import { errorCatalogue } from '../../domain/errors.js';
import type { Field } from './fields.js';
import type { ContentType, RouteTable } from './route-table.js';

/** `/crypto/:id` → `/crypto/{id}` */
const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

const parameter = (name: string, where: 'query' | 'header', field: Field<string, unknown>) => ({
  name,
  in: where,
  required: field.required,
  description: `${field.description} (${field.codec.name})`,
  schema: { type: 'string' },
});

const schemaOf = (type: ContentType): Record<string, string> => {
  switch (type) {
    case 'application/json':
      return {};
    case 'image/png':
      return { type: 'string', contentMediaType: 'image/png' };
    default:
      return { type: 'string' };
  }
};

const errorStatuses = [...new Set(Object.values(errorCatalogue).map((entry) => entry.status))].sort();

/**
 * The OpenAPI 3.1 description of the route table: the same rows that register the routes, so
 * the document cannot drift from what is served. `x-permission` names what each operation needs.
 */
export function openApiDocument(table: RouteTable, prefix: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of table.routes) {
    const operations = (paths[prefix + openApiPath(route.path)] ??= {});
    operations[route.method.toLowerCase()] = {
      summary: route.summary,
      'x-permission': route.permission,
      security: route.passwordLogin ? [{ bearer: [] }, { basic: [] }] : [{ bearer: [] }],
      parameters: [
        ...Object.entries(route.query).map(([name, field]) => parameter(name, 'query', field)),
        ...Object.entries(route.headers).map(([name, field]) => parameter(name, 'header', field)),
      ],
      ...(route.body && {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                required: Object.entries(route.body).filter(([, field]) => field.required).map(([name]) => name),
                properties: Object.fromEntries(Object.entries(route.body).map(([name, field]) => [name, { description: `${field.description} (${field.codec.name})` }])),
              },
            },
          },
        },
      }),
      responses: {
        [route.status]: {
          description: 'Success',
          content: Object.fromEntries((typeof route.produces === 'string' ? [route.produces] : route.produces).map((type) => [type, { schema: schemaOf(type) }])),
        },
        default: { description: 'An error from the catalogue', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
  }
  for (const redirect of table.redirects) {
    const operations = (paths[prefix + openApiPath(redirect.from)] ??= {});
    operations[redirect.method.toLowerCase()] = {
      summary: `Moved to ${prefix}${redirect.to}`,
      deprecated: true,
      responses: { 308: { description: `Permanent redirect to ${prefix}${redirect.to}, query string kept` } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'utility-api', version: '0.1.0' },
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        basic: { type: 'http', scheme: 'basic', description: 'username or email, and password: only where an operation lists it' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'integer', minimum: 0, maximum: 30 },
            message: { type: 'string' },
            details: { type: 'string' },
          },
          'x-statuses': errorStatuses,
        },
      },
    },
  };
}
