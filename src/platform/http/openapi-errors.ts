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

/**
 * The error answers of a whole document, each written once under `components/responses` and named
 * by its status and codes (`Error401-3-4`), with every operation pointing to it. Many operations
 * give the same ones (401, 403, 429, 503 are everyone's): the document is a fraction of the size,
 * and Swagger UI, which resolves an operation's whole subtree when a reader opens it, opened one in
 * about 1 s instead of 2.3 s on this 2-core machine (Chromium on the same page, the shared form
 * against the repeated one, four operations each).
 */
export class SharedErrorResponses {
  /** By what tells two answers apart (the status, and each code with its message), the name given. */
  private readonly names = new Map<string, string>();
  private readonly written: Record<string, unknown> = {};

  /** What `components.responses` holds. */
  get responses(): Record<string, unknown> {
    return this.written;
  }

  /** A reference to the answer of `status` with these codes and messages, written the first time it is asked for. */
  refer(status: number, entries: readonly { code: number; message: string }[]): { $ref: string } {
    const description = entries.map((entry) => `${entry.code}: ${entry.message}`).join('; ');
    let name = this.names.get(`${status} ${description}`);
    if (name === undefined) {
      // Two answers of one status and codes may still differ by a message (429 code 25: a rate limit, a quota, or both).
      const base = `Error${status}-${[...new Set(entries.map((entry) => entry.code))].join('-')}`;
      name = base;
      for (let variant = 2; name in this.written; variant += 1) name = `${base}-v${variant}`;
      this.names.set(`${status} ${description}`, name);
      this.written[name] = {
        description,
        headers: { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...(ERROR_HEADERS[status] ?? {}) },
        content: {
          // The first code's answer as the example: the reference shows it as written, not one made up from the schema.
          'application/json': {
            schema: {
              allOf: [
                { $ref: '#/components/schemas/Error' },
                // Each code with its own message: a client may branch on the code and show the message.
                {
                  oneOf: entries.map(({ code, message }) => ({
                    properties: { code: { const: code }, message: { const: message } },
                  })),
                },
              ],
            },
            example: { code: entries[0]!.code, message: entries[0]!.message },
          },
        },
      };
    }
    return { $ref: `#/components/responses/${name}` };
  }
}

/** Per status, a reference to the error object with the codes of these errors. */
export function errorResponsesOf(tags: readonly CatalogueTag[], shared: SharedErrorResponses): Record<string, unknown> {
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
      .map(([status, entries]) => [
        status,
        shared.refer(
          status,
          entries.sort((a, b) => a.code - b.code),
        ),
      ]),
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
