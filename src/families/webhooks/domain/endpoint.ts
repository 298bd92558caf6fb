import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type InputError } from '../../../domain/errors.js';
import { characterCount } from '../../../domain/text.js';
import { EVERY_EVENT, WEBHOOK_EVENT_TYPES, type EventFilter, type WebhookEventType } from './events.js';

/** Whose events an endpoint hears: its owner's own tokens, mail and account, or everybody's. */
export const WEBHOOK_SCOPES = ['own', 'all'] as const;
export type WebhookScope = (typeof WEBHOOK_SCOPES)[number];

/**
 * The signing secrets of an endpoint: the current one, and after a rotation the one it replaced,
 * which keeps signing beside it until `previousUntil` so that a receiver can switch without
 * refusing a delivery.
 */
export interface SigningSecrets {
  readonly current: string;
  readonly previous: string | null;
  readonly previousUntil: number | null;
}

/** An endpoint as the store keeps it. Times are milliseconds since the epoch. */
export interface WebhookEndpoint {
  readonly id: string;
  /** The user who registered it; null for the operator (the CLI). */
  readonly ownerUserId: string | null;
  readonly url: string;
  readonly events: EventFilter;
  readonly description: string | null;
  readonly scope: WebhookScope;
  readonly secrets: SigningSecrets;
  readonly disabled: boolean;
  /** Since when every attempt to it has failed; null while its last attempt delivered (or none was made). */
  readonly failingSince: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What an update may change; a field left out is kept. */
export interface EndpointChanges {
  readonly url?: string;
  readonly events?: EventFilter;
  readonly description?: string | null;
  readonly disabled?: boolean;
  readonly secrets?: SigningSecrets;
  readonly failingSince?: number | null;
  readonly updatedAt: number;
}

/** An endpoint's id: a version 4 UUID, as the store makes them. */
export const ENDPOINT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const ENDPOINT_ID_RULE = 'an endpoint id as POST /webhook/create answered it';

export const MAX_URL_LENGTH = 2000;
export const MAX_DESCRIPTION_CHARACTERS = 500;
/** Endpoints one user may hold: enough for any integration, few enough that an event's fan-out stays small. */
export const MAX_ENDPOINTS_PER_OWNER = 25;

/** Event names, each once, or `*` alone. */
export function checkEvents(events: readonly string[]): E.Either<InputError, EventFilter> {
  if (events.length === 0) return E.left(invalidInput('events', 'events must name at least one event, or be ["*"]'));
  if (events.includes(EVERY_EVENT))
    return events.length === 1
      ? E.right([EVERY_EVENT])
      : E.left(invalidInput('events', '"*" stands for every event and comes alone'));
  const unknown = events.find((name) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name));
  if (unknown !== undefined)
    return E.left(
      invalidInput('events', `unknown event ${JSON.stringify(unknown)}; known: ${WEBHOOK_EVENT_TYPES.join(', ')}`),
    );
  if (new Set(events).size !== events.length) return E.left(invalidInput('events', 'an event is named twice'));
  return E.right(events as readonly WebhookEventType[]);
}

export function checkDescription(description: string): E.Either<InputError, string> {
  return characterCount(description) <= MAX_DESCRIPTION_CHARACTERS
    ? E.right(description)
    : E.left(invalidInput('description', `description must be at most ${MAX_DESCRIPTION_CHARACTERS} characters`));
}

/**
 * The form of an endpoint's URL, before where it leads is checked: https (http only where the
 * operator allows it), a host, no credentials (a receiver checks the signature instead, and a
 * URL is shown and logged) and no fragment (never sent, so it would be quietly dropped).
 */
export function checkUrlForm(url: string, allowHttp: boolean): E.Either<InputError, URL> {
  const refuse = (why: string) => E.left(invalidInput('url', why));
  if (url.length > MAX_URL_LENGTH) return refuse(`url must be at most ${MAX_URL_LENGTH} characters`);
  if (!URL.canParse(url)) return refuse('url must be an absolute URL');
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:'))
    return refuse(
      allowHttp ? 'url must be https: or http:' : 'url must be https: (the operator has not allowed http:)',
    );
  if (parsed.hostname === '') return refuse('url must name a host');
  if (parsed.username !== '' || parsed.password !== '')
    return refuse('url may not carry credentials: receivers check the webhook-signature header instead');
  if (url.includes('#')) return refuse('url may not carry a fragment, which is never sent');
  return E.right(parsed);
}
