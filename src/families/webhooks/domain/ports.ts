import { identifier } from '../../../domain/identifier.js';
import type { DeliverySettlement, DeliveryStatus, NewDelivery, WebhookDelivery } from './delivery.js';
import type { EndpointChanges, WebhookEndpoint } from './endpoint.js';

/**
 * Where webhook endpoints are kept. Every method rejects only on outages (the storage down or
 * late); what is not there is answered as a value (undefined, false).
 */
export interface WebhookEndpoints {
  insert(endpoint: WebhookEndpoint): Promise<void>;
  find(id: string): Promise<WebhookEndpoint | undefined>;
  /** One owner's endpoints (null: the operator's), newest first. */
  listOwnedBy(ownerUserId: string | null): Promise<readonly WebhookEndpoint[]>;
  /** Every endpoint, newest first: what the operator sees. */
  listAll(): Promise<readonly WebhookEndpoint[]>;
  /** The endpoint as changed, or undefined when there is none of that id. */
  update(id: string, changes: EndpointChanges): Promise<WebhookEndpoint | undefined>;
  /** Whether there was one to remove. */
  remove(id: string): Promise<boolean>;
}
export const WebhookEndpoints = identifier<WebhookEndpoints>('WebhookEndpoints');

/**
 * Where an endpoint's URL leads, checked before it is stored: why its host may not be connected
 * to (it resolves to a loopback, private, link-local, unique-local, multicast or metadata address
 * the operator has not allowed, or to nothing), or undefined when it may. Never rejects.
 */
export interface WebhookDestinations {
  refusalOf(url: URL): Promise<string | undefined>;
}
export const WebhookDestinations = identifier<WebhookDestinations>('WebhookDestinations');

/** One POST of a delivery: where, with which headers, what body. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * What one attempt came to: the receiver's status code, or why there was none (refused
 * destination, network failure, time-out), and how long it took. Redirects are answers like
 * any other: never followed.
 */
export type AttemptOutcome =
  | { readonly kind: 'answered'; readonly status: number; readonly durationMs: number }
  | { readonly kind: 'failed'; readonly reason: string; readonly durationMs: number };

/**
 * Sends a delivery's request, connecting only where the outbound guard allows (the address
 * actually connected is checked) and within the time-out. Never rejects: a failure is an outcome.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<AttemptOutcome>;
}
export const WebhookSender = identifier<WebhookSender>('WebhookSender');

/**
 * Tells an endpoint's owner that it was disabled and why. Never rejects: a notice that cannot be
 * given is the adapter's to log, not the delivery's to fail.
 */
export interface OwnerNotices {
  endpointDisabled(endpoint: WebhookEndpoint, why: string): Promise<void>;
}
export const OwnerNotices = identifier<OwnerNotices>('WebhookOwnerNotices');

/** What a worker asks of the queue: who, when, until when, how many. */
export interface DeliveryClaim {
  readonly worker: string;
  readonly now: number;
  readonly leaseUntil: number;
  readonly limit: number;
}

/** Which of an endpoint's deliveries a page lists: newest first, before `before` (a delivery id), of one status or all. */
export interface DeliveryFilter {
  readonly endpointId: string;
  readonly status?: DeliveryStatus;
  readonly limit: number;
  readonly before?: { readonly createdAt: number; readonly id: string };
}

/**
 * The durable queue of webhook deliveries, claimed with leases as the mail outbox is (the
 * platform's lease queue): a delivery a worker holds when it dies is claimed again once its lease
 * ends. Every method rejects only on outages.
 */
export interface WebhookDeliveries {
  /** Queues deliveries due at their creation; one already queued for the same event and endpoint is left as it is. Answers how many were queued. */
  enqueue(deliveries: readonly NewDelivery[]): Promise<number>;
  /** Due deliveries, oldest due first, leased to `worker` until `leaseUntil`. */
  claim(claim: DeliveryClaim): Promise<readonly WebhookDelivery[]>;
  /** Records an attempt of a delivery the worker holds, ending its lease; false when the worker no longer holds it. */
  settle(id: string, worker: string, settlement: DeliverySettlement): Promise<boolean>;
  /** Hands back the worker's deliveries (those of `ids`, or all) to be claimed at once. */
  release(worker: string, ids?: readonly string[]): Promise<number>;
  find(id: string): Promise<WebhookDelivery | undefined>;
  list(filter: DeliveryFilter): Promise<readonly WebhookDelivery[]>;
  /** Queues a delivery that is not queued again, due `now`, keeping its id and attempts; false when there is none of that id. */
  requeue(id: string, now: number): Promise<boolean>;
}
export const WebhookDeliveries = identifier<WebhookDeliveries>('WebhookDeliveries');
