import type * as t from 'io-ts';
import { errorCatalogue, type CatalogueTag } from '../../domain/errors.js';
import { FIELD_ERRORS, isDescribed, type AdditionalBody, type Field, type JsonSchema, type Schema } from './fields.js';
import { HEALTH_CONTENT_TYPE, HEALTH_DOCUMENT_SCHEMA } from './health.js';
import { RATE_LIMIT_HEADERS } from './rate-limit-fields.js';
import { PACKAGE_VERSION } from './release.js';
import { fieldPlacesOf, servedPath, type ContentType, type Route, type RouteTable } from './route-table.js';

/** `/crypto/:id` → `/crypto/{id}` */
const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

// The shapes of io-ts's own types that a JSON Schema can be read from, by their `_tag`.
interface Tagged {
  readonly _tag?: string;
  readonly value?: unknown;
  readonly keys?: Record<string, unknown>;
  readonly props?: Record<string, t.Mixed>;
  readonly types?: readonly t.Mixed[];
  readonly type?: t.Mixed;
  readonly domain?: t.Mixed;
  readonly codomain?: t.Mixed;
}

const objectOf = (props: Record<string, t.Mixed>, required: readonly string[]): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(props).map(([name, codec]) => [name, jsonSchemaOf(codec)])),
  ...(required.length > 0 && { required }),
});

/** Every property of an object type, with those that must be there (`t.type` and `t.partial`, or both intersected). */
function propertiesOf(codec: Tagged): { props: Record<string, t.Mixed>; required: string[] } | undefined {
  switch (codec._tag) {
    case 'InterfaceType':
      return { props: codec.props!, required: Object.keys(codec.props!) };
    case 'PartialType':
      return { props: codec.props!, required: [] };
    case 'ExactType':
    case 'ReadonlyType':
      return propertiesOf(codec.type as Tagged);
    case 'IntersectionType': {
      const parts = codec.types!.map((part) => propertiesOf(part as Tagged));
      if (parts.some((part) => part === undefined)) return undefined;
      return {
        props: Object.assign({}, ...parts.map((part) => part!.props)) as Record<string, t.Mixed>,
        required: parts.flatMap((part) => part!.required),
      };
    }
    default:
      return undefined;
  }
}

/**
 * The JSON Schema of what a codec accepts: a codec of fields.ts says it itself; io-ts's own
 * types are read from their structure. A codec it cannot read is a mistake in a route row, so
 * building the document fails at start-up rather than describing it wrongly.
 */
export function jsonSchemaOf(codec: t.Decoder<never, unknown>): JsonSchema {
  if (isDescribed(codec)) return codec.jsonSchema;
  const tagged = codec as unknown as Tagged;
  switch (tagged._tag) {
    case 'StringType':
      return { type: 'string' };
    case 'NumberType':
      return { type: 'number' };
    case 'BooleanType':
      return { type: 'boolean' };
    case 'NullType':
      return { type: 'null' };
    case 'UnknownType':
      return {};
    case 'NeverType':
      return { not: {} };
    case 'AnyDictionaryType':
      return { type: 'object' };
    case 'LiteralType':
      return { const: tagged.value };
    case 'KeyofType':
      return { type: 'string', enum: Object.keys(tagged.keys!) };
    case 'UnionType':
      return { anyOf: tagged.types!.map((member) => jsonSchemaOf(member)) };
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return { type: 'array', items: jsonSchemaOf(tagged.type!) };
    case 'DictionaryType': {
      const domain = tagged.domain as Tagged;
      // A record over fixed keys has every one of them.
      if (domain._tag === 'KeyofType') {
        const keys = Object.keys(domain.keys!);
        return {
          ...objectOf(Object.fromEntries(keys.map((key) => [key, tagged.codomain!])), keys),
          additionalProperties: false,
        };
      }
      return { type: 'object', additionalProperties: jsonSchemaOf(tagged.codomain!) };
    }
    case 'ExactType': {
      const object = propertiesOf(tagged);
      if (object) return { ...objectOf(object.props, object.required), additionalProperties: false };
      break;
    }
    default: {
      const object = propertiesOf(tagged);
      if (object) return objectOf(object.props, object.required);
    }
  }
  throw new Error(`No JSON Schema for the codec ${codec.name}`);
}

const describedField = (field: Field<never, unknown>): JsonSchema => ({
  description: `${field.description} (${field.codec.name})`,
  ...jsonSchemaOf(field.codec),
});

const parameters = (where: 'query' | 'header' | 'path', schema: Schema<never> | undefined) =>
  Object.entries(schema ?? {}).map(([name, field]) => ({
    name,
    in: where,
    required: where === 'path' || field.required,
    description: `${field.description} (${field.codec.name})`,
    schema: jsonSchemaOf(field.codec),
  }));

const bodySchema = (body: Schema<never>, additional: AdditionalBody | undefined): JsonSchema => {
  const required = Object.entries(body)
    .filter(([, field]) => field.required)
    .map(([name]) => name);
  return {
    type: 'object',
    additionalProperties: false,
    ...(required.length > 0 && { required }),
    properties: Object.fromEntries(Object.entries(body).map(([name, field]) => [name, describedField(field)])),
    // Properties beyond the declared ones: those of the route's name pattern, as many as it takes.
    ...(additional && {
      patternProperties: { [additional.namePattern.source]: describedField(additional.field as Field<never, unknown>) },
      maxProperties: Object.keys(body).length + additional.maxCount,
    }),
  };
};

/** The JSON body an operation reads, with the size it may have where the route sets its own. */
const requestBody = (route: Route, body: Schema<never>): Record<string, unknown> => ({
  required: hasRequired(body),
  ...(route.maxBodyBytes !== undefined && {
    description: `A JSON object of at most ${route.maxBodyBytes} bytes`,
    'x-max-body-bytes': route.maxBodyBytes,
  }),
  content: { 'application/json': { schema: bodySchema(body, route.additionalBody) } },
});

/**
 * What any endpoint can answer, whatever it does: a caller who is not let in (401, 403), a
 * request line, path or headers the server cannot read (400/7 for a query string that is not
 * UTF-8 or gives a parameter the endpoint does not take, 400/11 for a body it does not take,
 * 400/9 for a missing Host, 431) or that
 * did not arrive in time (408), and an outage or a bug (500).
 */
const EVERY_ENDPOINT: readonly CatalogueTag[] = [
  'MissingApiKey',
  'InvalidApiKey',
  'NotAuthorized',
  'Blocked',
  'DisabledApiKey',
  'InvalidQueryParameter',
  // A body is refused where the endpoint takes none, and where it does when it is not the JSON asked for.
  'InvalidBodyParameter',
  'InvalidHeader',
  'RequestTooLarge',
  'RequestTimeout',
  'Unknown',
  // The request pipeline's rate limit stage may refuse any authenticated request.
  'RateLimited',
  // Every request's token is verified against the store, which may not answer in time.
  'StorageUnavailable',
];

const hasRequired = (schema: Schema<never> | undefined): boolean =>
  Object.values(schema ?? {}).some((field) => field.required);
const hasAny = (schema: Schema<never> | undefined): boolean => schema !== undefined && Object.keys(schema).length > 0;

/** Every error a route can answer: those of every endpoint, those its fields imply, its own. */
function errorsOf(route: Route): CatalogueTag[] {
  const fromFields: CatalogueTag[] = [];
  if (hasRequired(route.query)) fromFields.push(FIELD_ERRORS.query.missing);
  if (hasAny(route.query)) fromFields.push(FIELD_ERRORS.query.invalid);
  // A header sent empty counts as missing, even an optional one.
  if (hasAny(route.headers)) fromFields.push(FIELD_ERRORS.header.missing, FIELD_ERRORS.header.invalid);
  const placeOf = fieldPlacesOf(route);
  for (const name of Object.keys(route.params ?? {}))
    fromFields.push(FIELD_ERRORS[placeOf(name)].missing, FIELD_ERRORS[placeOf(name)].invalid);
  if (hasRequired(route.body)) fromFields.push(FIELD_ERRORS.body.missing);
  // A body that is not a JSON object is refused even where every field is optional.
  if (route.body) fromFields.push(FIELD_ERRORS.body.invalid);
  const turnedOff: CatalogueTag[] = route.disabled ? ['EndpointDisabled'] : [];
  return [...new Set([...EVERY_ENDPOINT, ...fromFields, ...route.errors, ...turnedOff])];
}

const contentTypesOf = (route: Route): readonly ContentType[] =>
  typeof route.produces === 'string' ? [route.produces] : route.produces;

const successSchema = (route: Route, type: ContentType): JsonSchema => {
  const schema = jsonSchemaOf(route.response);
  if (type.startsWith('image/')) return { ...schema, contentMediaType: type };
  // The same answer as the JSON, written as text, XML or YAML: a string to the document.
  if (type !== 'application/json' && contentTypesOf(route).includes('application/json'))
    return { type: 'string', contentMediaType: type };
  return schema;
};

/** Per status, the error object with the codes this route can answer with it. */
const errorResponses = (route: Route): Record<string, unknown> => errorResponsesOf(errorsOf(route));

/** Per status, the error object with the codes of these errors. */
function errorResponsesOf(tags: readonly CatalogueTag[]): Record<string, unknown> {
  const byStatus = new Map<number, { code: number; message: string }[]>();
  for (const tag of tags) {
    const { status, code, message } = errorCatalogue[tag];
    const entries = byStatus.get(status) ?? [];
    // Two errors with one code and message (503/29 for storage and for a full queue) are one answer to a client.
    if (!entries.some((entry) => entry.code === code && entry.message === message))
      byStatus.set(status, [...entries, { code, message }]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, entries]) => {
        const sorted = entries.sort((a, b) => a.code - b.code);
        // Each code with its own message: a client may branch on the code and show the message.
        const oneOfTheCodes = {
          oneOf: sorted.map(({ code, message }) => ({
            properties: { code: { const: code }, message: { const: message } },
          })),
        };
        return [
          status,
          {
            description: sorted.map((entry) => `${entry.code}: ${entry.message}`).join('; '),
            headers: { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...(ERROR_HEADERS[status] ?? {}) },
            content: {
              'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, oneOfTheCodes] } },
            },
          },
        ];
      }),
  );
}

const REQUEST_ID_HEADER = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

/** What an error status carries beside its body (error-response.ts decides them). */
const ERROR_HEADERS: Record<number, Record<string, unknown>> = {
  401: {
    'WWW-Authenticate': {
      required: true,
      description: 'the schemes the operation takes: Bearer, and Basic where a password is taken',
      schema: { type: 'string' },
    },
  },
  429: {
    'Retry-After': {
      required: true,
      description: 'whole seconds to wait before trying again',
      schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    },
  },
  503: {
    'Retry-After': {
      required: true,
      description: 'whole seconds to wait before trying again',
      schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    },
  },
};

const successHeaders = (route: Route): Record<string, unknown> => ({
  ...REQUEST_ID_HEADER,
  ...RATE_LIMIT_HEADERS,
  ...Object.fromEntries(
    Object.entries(route.responseHeaders ?? {}).map(([name, field]) => [
      name,
      {
        required: field.required,
        description: `${field.description} (${field.codec.name})`,
        schema: jsonSchemaOf(field.codec),
      },
    ]),
  ),
});

function operation(route: Route): Record<string, unknown> {
  const success =
    (route.response as unknown as Tagged)._tag === 'NeverType'
      ? {}
      : {
          [route.status]: {
            description: 'Success',
            headers: successHeaders(route),
            content: Object.fromEntries(
              contentTypesOf(route).map((type) => [type, { schema: successSchema(route, type) }]),
            ),
          },
        };
  return {
    summary: route.summary,
    'x-permission': route.permission,
    // Turned off here (features.disabled): every call answers 423 code 23.
    ...(route.disabled && { 'x-disabled': true }),
    security: route.passwordLogin ? [{ bearer: [] }, { basic: [] }] : [{ bearer: [] }],
    parameters: [
      ...parameters('path', route.params),
      ...parameters('query', route.query),
      ...parameters('header', route.headers),
    ],
    // No body at all reads as `{}`: it is required only where a field is.
    ...(route.body && { requestBody: requestBody(route, route.body) }),
    responses: { ...success, ...errorResponses(route) },
  };
}

/** Health for load balancers and orchestrators, asked without a token (draft-inadarei-api-health-check). */
const HEALTH_PATHS: readonly (readonly [string, string])[] = [
  ['/livez', 'Liveness: the process answers'],
  ['/readyz', 'Readiness: each dependency answers within 1 s and the instance is not stopping'],
];

/**
 * The OpenAPI 3.1 description of the route table: the same rows that register the routes, so
 * the document cannot drift from what is served. `x-permission` names what each operation needs.
 */
export function openApiDocument(table: RouteTable, prefix: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of table.routes) {
    (paths[openApiPath(servedPath(route))] ??= {})[route.method.toLowerCase()] = operation(route);
  }
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
  paths[`${prefix}/openapi.json`] = {
    get: {
      summary: 'This document',
      security: [],
      responses: {
        200: {
          description: 'The OpenAPI 3.1 description of the API',
          headers: REQUEST_ID_HEADER,
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        ...errorResponsesOf(['InvalidQueryParameter']),
      },
    },
  };
  paths[`${prefix}/changelog`] = {
    get: {
      summary: 'What each version added, changed and removed, as an RSS 2.0 feed',
      security: [],
      responses: {
        200: {
          description: 'The change log',
          headers: REQUEST_ID_HEADER,
          content: { 'application/rss+xml': { schema: { type: 'string' } } },
        },
        ...errorResponsesOf(['InvalidQueryParameter']),
      },
    },
  };
  for (const [path, summary] of HEALTH_PATHS) {
    paths[path] = {
      get: {
        summary,
        security: [],
        responses: {
          ...Object.fromEntries(
            [
              [200, 'pass, or warn: serving, with the concerns in its checks'],
              [503, 'fail: send this instance no work'],
            ].map(([status, description]) => [
              status,
              {
                description,
                headers: REQUEST_ID_HEADER,
                content: { [HEALTH_CONTENT_TYPE]: { schema: HEALTH_DOCUMENT_SCHEMA } },
              },
            ]),
          ),
          // None of these takes a query parameter: one given is refused, never ignored.
          ...errorResponsesOf(['InvalidQueryParameter']),
        },
      },
    };
  }
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
