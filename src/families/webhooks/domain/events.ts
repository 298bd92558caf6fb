import { EVENT_TYPES, type EventType } from '../../../domain/events.js';

/**
 * The events an endpoint may subscribe to, by name: every event the service announces. `webhook.test` is not among them: it is sent
 * only by POST /webhook/test, to the one endpoint asked, whatever it subscribes to.
 */
export const WEBHOOK_EVENT_TYPES = EVENT_TYPES;
export type WebhookEventType = EventType;

/** What a test sends. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Every event, in a subscription. */
export const EVERY_EVENT = '*';

/** What an endpoint subscribes to: some event types, or every one (`*`, alone). */
export type EventFilter = readonly WebhookEventType[] | readonly [typeof EVERY_EVENT];

/** One event as it is delivered: the body every receiver gets, `{type, timestamp, data}`. */
export interface WebhookPayload {
  readonly type: WebhookEventType | typeof TEST_EVENT_TYPE;
  /** ISO 8601, when what it reports happened. */
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export const subscribes = (events: EventFilter, type: string): boolean =>
  events[0] === EVERY_EVENT || (events as readonly string[]).includes(type);
