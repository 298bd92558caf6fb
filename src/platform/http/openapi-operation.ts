import type { Field, Schema, AdditionalBody } from './fields.js';
import type { JsonSchema } from './codecs.js';
import { jsonSchemaOf, type Tagged } from './json-schema.js';
import {
  errorResponsesOf,
  errorsOf,
  hasRequired,
  REQUEST_ID_HEADER,
  type SharedErrorResponses,
} from './openapi-errors.js';
import { RATE_LIMIT_HEADERS } from './rate-limit-fields.js';
import type { ContentType, Route } from './route-table.js';

/** `/crypto/:id` → `/crypto/{id}` */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

const describedField = (field: Field<never, unknown>): JsonSchema => ({
  description: `${field.description} (${field.codec.name})`,
  ...jsonSchemaOf(field.codec),
});

/** A route's example request by field, as `exampleRequestOf` gives it (`"query lat"`). */
export type Examples = ReadonlyMap<string, unknown>;

/** Where a field is given, as the samples name it. */
const SAMPLE_PLACE = { path: 'params', query: 'query', header: 'headers' } as const;

/** A route's parameters of one place, as the document lists them, each with its example. */
export const parameters = (where: 'query' | 'header' | 'path', schema: Schema<never> | undefined, examples: Examples) =>
  Object.entries(schema ?? {}).map(([name, field]) => {
    const example = examples.get(`${SAMPLE_PLACE[where]} ${name}`);
    return {
      name,
      in: where,
      required: where === 'path' || field.required,
      description: `${field.description} (${field.codec.name})`,
      schema: jsonSchemaOf(field.codec),
      ...(example !== undefined && { example }),
    };
  });

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

/** The JSON body an operation reads, with the size it may have where the route sets its own, and an example. */
const requestBody = (route: Route, body: Schema<never>, examples: Examples): Record<string, unknown> => {
  const example = Object.fromEntries(
    Object.keys(body).flatMap((name) => (examples.has(`body ${name}`) ? [[name, examples.get(`body ${name}`)]] : [])),
  );
  return {
    required: hasRequired(body),
    ...(route.maxBodyBytes !== undefined && {
      description: `A JSON object of at most ${route.maxBodyBytes} bytes`,
      'x-max-body-bytes': route.maxBodyBytes,
    }),
    content: { 'application/json': { schema: bodySchema(body, route.additionalBody), example } },
  };
};

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

/** What a success carries: its request id, its rate-limit standing unless the row is open (never limited), its own. */
const successHeaders = (route: Route): Record<string, unknown> => ({
  ...REQUEST_ID_HEADER,
  ...(!route.open && RATE_LIMIT_HEADERS),
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

/**
 * Each status a success may have, with what it means (by default the row's status, "Success"),
 * and what the route answered its example request with that status, in each content type it was recorded in.
 */
function successes(route: Route, answered: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if ((route.response as unknown as Tagged)._tag === 'NeverType') return {};
  const contentOf = (status: string) =>
    Object.fromEntries(
      contentTypesOf(route).map((type) => {
        const example = answered[`${status} ${type}`];
        return [type, { schema: successSchema(route, type), ...(example !== undefined && { example }) }];
      }),
    );
  return Object.fromEntries(
    Object.entries(route.answers ?? { [route.status]: 'Success' }).map(([status, description]) => [
      status,
      { description, headers: successHeaders(route), content: contentOf(status) },
    ]),
  );
}

/**
 * One row as an operation of the document, with its example request (see `exampleRequestOf`) and
 * the answers recorded for it (see `AnswerExampleTable`).
 */
export function operation(
  route: Route,
  examples: Examples,
  answered: Readonly<Record<string, unknown>>,
  shared: SharedErrorResponses,
): Record<string, unknown> {
  // Per status, the error object with the codes this route can answer with it.
  const responses = { ...successes(route, answered), ...errorResponsesOf(errorsOf(route), shared) };
  const listed = [
    ...parameters('path', route.params, examples),
    ...parameters('query', route.query, examples),
    ...parameters('header', route.headers, examples),
  ];
  const tags = route.section !== undefined && { tags: [route.section] };
  // Asked without a token: no permission to name, no scheme to offer, parameters only if it takes some.
  if (route.open)
    return {
      ...tags,
      summary: route.summary,
      security: [],
      ...(listed.length > 0 && { parameters: listed }),
      responses,
    };
  return {
    ...tags,
    summary: route.summary,
    'x-permission': route.permission,
    // Turned off here (features.disabled): every call answers 423 code 23.
    ...(route.disabled && { 'x-disabled': true }),
    security: route.passwordLogin ? [{ bearer: [] }, { basic: [] }] : [{ bearer: [] }],
    parameters: listed,
    // No body at all reads as `{}`: it is required only where a field is.
    ...(route.body && { requestBody: requestBody(route, route.body, examples) }),
    responses,
  };
}
