import { errorCatalogue, type CatalogueTag } from '../../domain/errors.js';
import { FIELD_ERRORS, type Schema } from './fields.js';
import { RATE_LIMIT_HEADERS } from './rate-limit-fields.js';
import { fieldPlacesOf, type Route } from './route-table.js';

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
  // A token bound to client networks, used from another address.
  'AddressNotAllowed',
  'Blocked',
  'DisabledApiKey',
  'InvalidQueryParameter',
  // A body is refused where the endpoint takes none, and where it does when it is not the JSON asked for.
  'InvalidBodyParameter',
  'InvalidHeader',
  'RequestTooLarge',
  'RequestTimeout',
  'Unknown',
  // The request pipeline's rate limit stage may refuse any authenticated request, by its rate limit or a quota.
  'RateLimited',
  'QuotaExceeded',
  // Every request's token is verified against the store, which may not answer in time.
  'StorageUnavailable',
];

/**
 * What an open row can answer whatever it does: a query parameter it does not take is refused,
 * never ignored. (It asks for no token, counts no limit and reads no body.)
 */
const EVERY_OPEN_ENDPOINT: readonly CatalogueTag[] = ['InvalidQueryParameter'];

export const hasRequired = (schema: Schema<never> | undefined): boolean =>
  Object.values(schema ?? {}).some((field) => field.required);
const hasAny = (schema: Schema<never> | undefined): boolean => schema !== undefined && Object.keys(schema).length > 0;

/** Every error a route can answer: those of every endpoint, those its fields imply, its own. */
export function errorsOf(route: Route): CatalogueTag[] {
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
  const everywhere = route.open ? EVERY_OPEN_ENDPOINT : EVERY_ENDPOINT;
  return [...new Set([...everywhere, ...fromFields, ...route.errors, ...turnedOff])];
}

/** Per status, the error object with the codes of these errors. */
export function errorResponsesOf(tags: readonly CatalogueTag[]): Record<string, unknown> {
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
              // The first code's answer as the example: the reference shows it as written, not one made up from the schema.
              'application/json': {
                schema: { allOf: [{ $ref: '#/components/schemas/Error' }, oneOfTheCodes] },
                example: { code: sorted[0]!.code, message: sorted[0]!.message },
              },
            },
          },
        ];
      }),
  );
}

export const REQUEST_ID_HEADER = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

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
