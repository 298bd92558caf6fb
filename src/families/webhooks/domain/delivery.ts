/** Where a delivery is: waiting for an attempt (the first or another), delivered, or given up on. */
export const DELIVERY_STATUSES = ['queued', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One attempt: when, the receiver's status code or why there was none, how long it took. */
export interface DeliveryAttempt {
  readonly at: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/** One event on its way to one endpoint. */
export interface WebhookDelivery {
  /** The `webhook-id` of every attempt: `msg_` and a UUID. */
  readonly id: string;
  readonly endpointId: string;
  /** The event log's id of the event it carries. */
  readonly eventId: string;
  readonly eventType: string;
  /** The body as sent on every attempt, `{type, timestamp, data}`. */
  readonly payload: string;
  readonly status: DeliveryStatus;
  readonly attempts: readonly DeliveryAttempt[];
  readonly createdAt: number;
  /** When a queued delivery is due; for a delivered or failed one, when that happened. */
  readonly nextAttemptAt: number;
  /** Why the last attempt did not deliver it, or why it was given up on; null once delivered. */
  readonly lastError: string | null;
}

export type NewDelivery = Pick<
  WebhookDelivery,
  'id' | 'endpointId' | 'eventId' | 'eventType' | 'payload' | 'createdAt'
>;

/** What an attempt leaves on a delivery. */
export interface DeliverySettlement {
  readonly attempt: DeliveryAttempt;
  readonly status: DeliveryStatus;
  /** When the next attempt is due (queued), or when it ended. */
  readonly nextAttemptAt: number;
  readonly lastError: string | null;
}

/** Oldest due first, as a claim takes them. */
export const oldestDueFirst = (a: WebhookDelivery, b: WebhookDelivery): number =>
  a.nextAttemptAt - b.nextAttemptAt || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Newest first, as a listing shows them. */
export const newestFirst = (a: WebhookDelivery, b: WebhookDelivery): number =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
