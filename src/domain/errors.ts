/**
 * The error catalogue: every error the service can answer, as a tagged union of values.
 * Use cases return these inside an Either; one function at each transport's edge turns them
 * into a response. Codes 0–24 are fixed by the specification; 25–30 are ours (see docs/errors.md).
 *
 * The domain speaks of input by its fields (`MissingInput`, `InvalidInput`), never of where a
 * field came from: a transport places them (HTTP: a query parameter, a header or a body field,
 * the codes 6 to 11; the CLI: a flag).
 */

/**
 * What an outage leaves on the error it becomes: its cause, for the log at the transport's edge.
 * Never shown to the client.
 */
interface OutageCause {
  readonly cause?: unknown;
}

export type DomainError =
  | ({ readonly _tag: 'Unknown'; readonly details?: string } & OutageCause)
  | { readonly _tag: 'NotAuthorized'; readonly permission: string }
  /** The token is bound to client networks (`allowedAddresses`) and the request came from none of them. */
  | { readonly _tag: 'AddressNotAllowed'; readonly address: string }
  | { readonly _tag: 'Blocked' }
  | { readonly _tag: 'MissingApiKey' }
  | { readonly _tag: 'InvalidApiKey' }
  | { readonly _tag: 'DisabledApiKey' }
  | InputError
  /** A redirect whose target (the new path and the query kept) is longer than clients read in a header. */
  | { readonly _tag: 'RedirectTargetTooLong'; readonly details?: string }
  /** The request (its headers, or its body) stopped arriving before it was whole. */
  | { readonly _tag: 'RequestTimeout'; readonly details?: string }
  | { readonly _tag: 'EncryptionFailed' }
  | { readonly _tag: 'DecryptionFailed' }
  | { readonly _tag: 'UserNotFound'; readonly user: string }
  | ({ readonly _tag: 'UserCreateFailed' } & OutageCause)
  | ({ readonly _tag: 'UserUpdateFailed' } & OutageCause)
  | ({ readonly _tag: 'UserDeleteFailed' } & OutageCause)
  | { readonly _tag: 'TokenNotFound'; readonly token: string }
  | ({ readonly _tag: 'TokenCreateFailed' } & OutageCause)
  | ({ readonly _tag: 'TokenUpdateFailed' } & OutageCause)
  | ({ readonly _tag: 'TokenDeleteFailed' } & OutageCause)
  /** `suggestions`: what a dictionary lookup that found nothing offers instead, the closest first. */
  | { readonly _tag: 'InformationNotFound'; readonly details?: string; readonly suggestions?: readonly string[] }
  | { readonly _tag: 'MessageNotFound'; readonly id: string }
  | { readonly _tag: 'WebhookNotFound'; readonly id: string }
  | { readonly _tag: 'EndpointDisabled'; readonly details?: string }
  | { readonly _tag: 'NotImplemented' }
  | { readonly _tag: 'RateLimited'; readonly retryAfterSeconds?: number }
  /** A user's messages have had as many recipients as an hour or a day allows (`mail.maxRecipientsPer…`). */
  | { readonly _tag: 'MailQuotaExceeded'; readonly retryAfterSeconds: number; readonly details: string }
  | { readonly _tag: 'QuotaExceeded'; readonly retryAfterSeconds: number; readonly details: string }
  | { readonly _tag: 'Conflict'; readonly details?: string }
  /** The owner already holds the most unexpired tokens one user may (`auth.maxTokensPerUser`). */
  | { readonly _tag: 'TooManyTokens'; readonly limit: number }
  | { readonly _tag: 'IdempotencyKeyReused'; readonly key: string }
  | { readonly _tag: 'MessageNotRetryable'; readonly id: string; readonly status: string }
  | { readonly _tag: 'RequestTooLarge'; readonly details?: string }
  | { readonly _tag: 'MethodNotAllowed'; readonly allowed: readonly string[] }
  | ({ readonly _tag: 'UpstreamUnavailable'; readonly details?: string } & OutageCause)
  | ({ readonly _tag: 'UpstreamTimeout'; readonly details?: string } & OutageCause)
  /** Our own storage did not answer in time: nothing was done, and asking again later may succeed. */
  | ({ readonly _tag: 'StorageUnavailable' } & OutageCause)
  /** The server has no room for this work now (every slot and its queue taken): asking again soon may succeed. */
  | { readonly _tag: 'ServiceBusy'; readonly details: string };

export type DomainErrorTag = DomainError['_tag'];

/**
 * Input refused, by the fields at fault (more than one where only together they are wrong, as a
 * latitude without its longitude) and, for an invalid one, the rule it broke.
 */
export type InputError =
  | { readonly _tag: 'MissingInput'; readonly fields: readonly string[] }
  | { readonly _tag: 'InvalidInput'; readonly fields: readonly string[]; readonly reason?: string };

/** An upstream that could not be asked, as every family answers it: past its deadline, or not reached at all. */
export const upstreamFailure = (name: string, reason: 'timeout' | 'failure'): DomainError =>
  reason === 'timeout'
    ? { _tag: 'UpstreamTimeout', details: `${name} did not answer in time` }
    : { _tag: 'UpstreamUnavailable', details: `${name} could not be reached` };

export const missingInput = (...fields: readonly string[]): InputError => ({ _tag: 'MissingInput', fields });
export const invalidInput = (fields: string | readonly string[], reason?: string): InputError =>
  reason === undefined
    ? { _tag: 'InvalidInput', fields: typeof fields === 'string' ? [fields] : fields }
    : { _tag: 'InvalidInput', fields: typeof fields === 'string' ? [fields] : fields, reason };

/** Input refused as HTTP places it: by whether its fields were query parameters, headers or body fields. */
export type PlacedInputError =
  | { readonly _tag: 'MissingQueryParameter'; readonly names: readonly string[] }
  | { readonly _tag: 'InvalidQueryParameter'; readonly names: readonly string[]; readonly details?: string }
  | { readonly _tag: 'MissingHeader'; readonly names: readonly string[] }
  | { readonly _tag: 'InvalidHeader'; readonly names: readonly string[]; readonly details?: string }
  | { readonly _tag: 'MissingBodyParameter'; readonly names: readonly string[] }
  | { readonly _tag: 'InvalidBodyParameter'; readonly names: readonly string[]; readonly details?: string };

/** What a client is answered with: a domain error, its input errors placed. */
export type CatalogueError = Exclude<DomainError, InputError> | PlacedInputError;
export type CatalogueTag = CatalogueError['_tag'];

/** The errors a store or upstream outage becomes. */
export type OutageError = Extract<
  DomainError,
  {
    readonly _tag:
      | 'Unknown'
      | 'UserCreateFailed'
      | 'UserUpdateFailed'
      | 'UserDeleteFailed'
      | 'TokenCreateFailed'
      | 'TokenUpdateFailed'
      | 'TokenDeleteFailed'
      | 'UpstreamUnavailable'
      | 'UpstreamTimeout'
      | 'StorageUnavailable';
  }
>;

/** The cause an outage left on its error, if any. */
export const outageCauseOf = (error: DomainError | CatalogueError): unknown =>
  'cause' in error ? error.cause : undefined;

export interface CatalogueEntry {
  readonly code: number;
  readonly status: number;
  readonly message: string;
}

export const errorCatalogue: { readonly [T in CatalogueTag]: CatalogueEntry } = {
  Unknown: { code: 0, status: 500, message: 'An unknown error occurred' },
  NotAuthorized: { code: 1, status: 403, message: 'You are not authorized to access this resource' },
  AddressNotAllowed: { code: 1, status: 403, message: 'You are not authorized to access this resource' },
  Blocked: { code: 2, status: 403, message: 'You are blacklisted from accessing this resource' },
  MissingApiKey: { code: 3, status: 401, message: 'No API key provided' },
  InvalidApiKey: { code: 4, status: 401, message: 'Invalid API key provided' },
  DisabledApiKey: { code: 5, status: 403, message: 'The provided API key has been disabled' },
  MissingQueryParameter: { code: 6, status: 400, message: 'Missing Query Parameter(s)' },
  InvalidQueryParameter: { code: 7, status: 400, message: 'Invalid Query Parameter(s)' },
  RedirectTargetTooLong: { code: 7, status: 414, message: 'Query too long to redirect' },
  MissingHeader: { code: 8, status: 400, message: 'Missing Header Parameter(s)' },
  InvalidHeader: { code: 9, status: 400, message: 'Invalid Header Parameter(s)' },
  RequestTimeout: { code: 9, status: 408, message: 'The request did not arrive in time' },
  MissingBodyParameter: { code: 10, status: 400, message: 'Missing Body Parameter(s)' },
  InvalidBodyParameter: { code: 11, status: 400, message: 'Invalid Body Parameter(s)' },
  EncryptionFailed: { code: 12, status: 500, message: 'Unable to encrypt data' },
  DecryptionFailed: { code: 13, status: 400, message: 'Unable to decrypt data' },
  UserNotFound: { code: 14, status: 404, message: 'Unable to locate requested user' },
  UserCreateFailed: { code: 15, status: 500, message: 'Unable to create requested user' },
  UserUpdateFailed: { code: 16, status: 500, message: 'Unable to update requested user' },
  UserDeleteFailed: { code: 17, status: 500, message: 'Unable to delete requested user' },
  TokenNotFound: { code: 18, status: 404, message: 'Unable to locate requested token' },
  TokenCreateFailed: { code: 19, status: 500, message: 'Unable to create requested token' },
  TokenUpdateFailed: { code: 20, status: 500, message: 'Unable to update requested token' },
  TokenDeleteFailed: { code: 21, status: 500, message: 'Unable to delete requested token' },
  InformationNotFound: { code: 22, status: 404, message: 'Unable to retrieve requested information' },
  // The specification's text for code 22, as every "not found" of ours that has no code of its own.
  MessageNotFound: { code: 22, status: 404, message: 'Unable to retrieve requested information' },
  WebhookNotFound: { code: 22, status: 404, message: 'Unable to retrieve requested information' },
  EndpointDisabled: { code: 23, status: 423, message: 'This endpoint is currently disabled' },
  NotImplemented: { code: 24, status: 501, message: 'This endpoint has not been implemented yet' },
  RateLimited: { code: 25, status: 429, message: 'Too many requests, slow down' },
  MailQuotaExceeded: { code: 25, status: 429, message: 'Mail quota exceeded, try again later' },
  QuotaExceeded: { code: 25, status: 429, message: 'Request quota exceeded, try again when the period ends' },
  Conflict: { code: 26, status: 409, message: 'The resource already exists' },
  IdempotencyKeyReused: { code: 26, status: 409, message: 'The idempotency key was used with another request' },
  MessageNotRetryable: { code: 26, status: 409, message: 'Only a failed message can be retried' },
  TooManyTokens: { code: 26, status: 409, message: 'The user holds too many tokens' },
  RequestTooLarge: { code: 27, status: 431, message: 'Request line or headers too large' },
  MethodNotAllowed: { code: 28, status: 405, message: 'Method not allowed on this endpoint' },
  UpstreamUnavailable: { code: 29, status: 502, message: 'An upstream service is unavailable' },
  UpstreamTimeout: { code: 30, status: 504, message: 'An upstream service did not answer in time' },
  StorageUnavailable: { code: 29, status: 503, message: 'The service is unavailable, try again later' },
  ServiceBusy: { code: 29, status: 503, message: 'The service is unavailable, try again later' },
};

export function catalogueEntryOf(error: CatalogueError): CatalogueEntry {
  return errorCatalogue[error._tag];
}

/** Words to try instead of one not found, for the optional `suggestions` field. */
export const suggestionsOf = (error: DomainError | CatalogueError): readonly string[] | undefined =>
  error._tag === 'InformationNotFound' ? error.suggestions : undefined;

/** A short human explanation of what failed, for the optional `details` field. */
export function detailsOf(error: DomainError | CatalogueError): string | undefined {
  switch (error._tag) {
    case 'MissingInput':
      return `Missing: ${error.fields.join(', ')}`;
    case 'InvalidInput':
      return error.reason ?? `Invalid: ${error.fields.join(', ')}`;
    case 'NotAuthorized':
      return `Missing permission ${error.permission}`;
    case 'AddressNotAllowed':
      return `The address ${error.address} is not allowed to use this token`;
    case 'MissingQueryParameter':
    case 'MissingHeader':
    case 'MissingBodyParameter':
      return `Missing: ${error.names.join(', ')}`;
    case 'InvalidQueryParameter':
    case 'InvalidHeader':
    case 'InvalidBodyParameter':
      return error.details ?? `Invalid: ${error.names.join(', ')}`;
    case 'UserNotFound':
      return `No user ${error.user}`;
    case 'TokenNotFound':
      return `No token ${error.token}`;
    case 'MessageNotFound':
      return `No message ${error.id}`;
    case 'WebhookNotFound':
      return `No webhook endpoint ${error.id}`;
    case 'IdempotencyKeyReused':
      return `The Idempotency-Key ${error.key} was used in the last 24 hours with a request other than this one`;
    case 'MessageNotRetryable':
      return `Message ${error.id} is ${error.status}`;
    case 'MethodNotAllowed':
      return `Allowed: ${error.allowed.join(', ')}`;
    case 'TooManyTokens':
      return `A user may hold at most ${error.limit} unexpired tokens; revoke one first`;
    case 'RateLimited':
      return error.retryAfterSeconds === undefined ? undefined : `Try again in ${error.retryAfterSeconds} s`;
    case 'Unknown':
    case 'EndpointDisabled':
    case 'InformationNotFound':
    case 'Conflict':
    case 'RequestTooLarge':
    case 'RedirectTargetTooLong':
    case 'RequestTimeout':
    case 'UpstreamUnavailable':
    case 'UpstreamTimeout':
    case 'ServiceBusy':
    case 'MailQuotaExceeded':
    case 'QuotaExceeded':
      return error.details;
    default:
      return undefined;
  }
}
