import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../../domain/identity/actor.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import { orOutage } from '../../../domain/outage.js';
import { checkPageLimit, pageOf, withLookahead } from '../../../domain/paging.js';
import type { Clock } from '../../../domain/ports.js';
import { DELIVERY_STATUSES, type DeliveryStatus, type WebhookDelivery } from './delivery.js';
import { WEBHOOK_STORE_DOWN, type ManageWebhooks } from './manage-webhooks.js';
import type { WebhookDeliveries } from './ports.js';

export const DEFAULT_DELIVERY_PAGE = 20;
export const MAX_DELIVERY_PAGE = 100;
/** A delivery's id: `msg_` and a UUID. */
export const DELIVERY_ID = /^msg_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Where a page ends: the last delivery's creation (ms) and id. */
export const DELIVERY_CURSOR = /^(\d{1,15})\.(msg_[0-9a-f-]{36})$/;

const iso = (ms: number): string => new Date(ms).toISOString();

/** A delivery as its endpoint's owner sees it: the event, every attempt, and the next one's time. */
export interface DeliveryView {
  readonly id: string;
  readonly event: { readonly id: string; readonly type: string };
  readonly status: DeliveryStatus;
  readonly attempts: readonly {
    readonly at: string;
    readonly status: number | null;
    readonly error: string | null;
    readonly durationMs: number;
  }[];
  readonly createdAt: string;
  /** When the next attempt is due; null once delivered or failed. */
  readonly nextAttemptAt: string | null;
  readonly lastError: string | null;
}

export interface DeliveryPage {
  readonly deliveries: readonly DeliveryView[];
  readonly nextCursor: string | null;
}

export interface DeliveryRequest {
  readonly status?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

export const deliveryViewOf = (delivery: WebhookDelivery): DeliveryView => ({
  id: delivery.id,
  event: { id: delivery.eventId, type: delivery.eventType },
  status: delivery.status,
  attempts: delivery.attempts.map((attempt) => ({ ...attempt, at: iso(attempt.at) })),
  createdAt: iso(delivery.createdAt),
  nextAttemptAt: delivery.status === 'queued' ? iso(delivery.nextAttemptAt) : null,
  lastError: delivery.lastError,
});

const deliveryNotFound = (id: string): E.Either<DomainError, never> => E.left({ _tag: 'WebhookNotFound', id });

/** An endpoint's deliveries, and queuing one again: its owner's (or the operator's) alone, as the endpoint is. */
export class ReadDeliveries {
  constructor(
    private readonly manage: ManageWebhooks,
    private readonly deliveries: WebhookDeliveries,
    private readonly clock: Clock,
  ) {}

  /** Newest first, a page at a time. */
  async list(actor: Actor, endpointId: string, request: DeliveryRequest): Promise<E.Either<DomainError, DeliveryPage>> {
    const endpoint = await this.manage.endpoint(actor, endpointId);
    if (E.isLeft(endpoint)) return endpoint;
    const { status, limit = DEFAULT_DELIVERY_PAGE, cursor } = request;
    if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status))
      return E.left(invalidInput('status', `status must be one of ${DELIVERY_STATUSES.join(', ')}`));
    const wrongLimit = checkPageLimit(limit, MAX_DELIVERY_PAGE);
    if (wrongLimit) return E.left(wrongLimit);
    const before = cursor === undefined ? undefined : DELIVERY_CURSOR.exec(cursor);
    if (before === null) return E.left(invalidInput('cursor', 'cursor must be the nextCursor of the page before'));
    const page = await orOutage(
      this.deliveries.list({
        endpointId,
        status: status as DeliveryStatus | undefined,
        limit: withLookahead(limit),
        before: before && { createdAt: Number(before[1]), id: before[2]! },
      }),
      WEBHOOK_STORE_DOWN,
    );
    if (E.isLeft(page)) return page;
    const { rows, nextCursor } = pageOf(page.right, limit, (last) => `${last.createdAt}.${last.id}`);
    return E.right({ deliveries: rows.map(deliveryViewOf), nextCursor });
  }

  /** Queues a delivery of the endpoint again, due now, with the same webhook-id; one still queued stays as it is. */
  async redeliver(
    actor: Actor,
    endpointId: string,
    deliveryId: string,
  ): Promise<E.Either<DomainError, { readonly id: string; readonly status: 'queued' }>> {
    const endpoint = await this.manage.endpoint(actor, endpointId);
    if (E.isLeft(endpoint)) return endpoint;
    if (!DELIVERY_ID.test(deliveryId))
      return E.left(invalidInput('delivery', 'delivery must be a delivery id as GET /webhook/deliveries shows it'));
    const found = await orOutage(this.deliveries.find(deliveryId), WEBHOOK_STORE_DOWN);
    if (E.isLeft(found)) return found;
    if (found.right === undefined || found.right.endpointId !== endpointId) return deliveryNotFound(deliveryId);
    const queued = await orOutage(this.deliveries.requeue(deliveryId, this.clock.now()), WEBHOOK_STORE_DOWN);
    if (E.isLeft(queued)) return queued;
    return queued.right ? E.right({ id: deliveryId, status: 'queued' }) : deliveryNotFound(deliveryId);
  }
}
