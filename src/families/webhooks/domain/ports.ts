import { identifier } from '../../../domain/identifier.js';
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
