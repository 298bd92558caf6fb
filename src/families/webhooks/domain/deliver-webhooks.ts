import type { DomainEvent, EventLog } from '../../../domain/events.js';
import type { Clock, Randomness } from '../../../domain/ports.js';
import { chanceFrom, retryDelay, type RetrySchedule } from '../../../domain/retry.js';
import type { DeliverySettlement, NewDelivery, WebhookDelivery } from './delivery.js';
import type { WebhookEndpoint } from './endpoint.js';
import { WebhooksPermission } from './permissions.js';
import { grantedBy } from '../../../domain/permissions.js';
import type { User } from '../../../domain/identity/user.js';
import type { UserStore } from '../../users-and-tokens/domain/index.js';
import { subscribes, type WebhookPayload } from './events.js';
import type { AttemptOutcome, OwnerNotices, WebhookDeliveries, WebhookEndpoints, WebhookSender } from './ports.js';
import { signatureHeaders, signingSecretsAt } from './signing.js';
import { WEBHOOK_ID_PREFIX } from './test-webhook.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const EVENTS_KEPT_MS = 35 * DAY_MS;

export interface DeliverySettings extends RetrySchedule {
  /** How long a delivery that keeps failing for a passing reason is retried. */
  readonly retryForHours: number;
  /** An endpoint whose every attempt has failed for this long is disabled. */
  readonly disableAfterDays: number;
}

/**
 * Whether an endpoint hears an event: enabled, there when it happened (an event handed on a
 * moment after an endpoint was registered is not sent to it), subscribed to its type, and its
 * owner's own unless it hears everybody's.
 */
export const hears = (endpoint: WebhookEndpoint, event: Pick<DomainEvent, 'type' | 'concerns' | 'at'>): boolean =>
  !endpoint.disabled &&
  endpoint.createdAt <= event.at &&
  subscribes(endpoint.events, event.type) &&
  (endpoint.scope === 'all' || (endpoint.ownerUserId !== null && endpoint.ownerUserId === event.concerns));

/** The body every attempt of an event's deliveries carries. */
export const payloadOf = (event: DomainEvent): string =>
  JSON.stringify({
    type: event.type,
    timestamp: new Date(event.at).toISOString(),
    data: event.data,
  } satisfies WebhookPayload);

/** What an attempt's answer makes of its delivery: delivered, tried again later, or given up on (and whether the endpoint is gone for good). */
type Verdict =
  | { readonly kind: 'delivered' }
  | { readonly kind: 'retry'; readonly error: string }
  | { readonly kind: 'fail'; readonly error: string; readonly disableEndpoint: boolean };

/**
 * 2xx delivers; 410 Gone disables the endpoint; 408, 429 and 5xx, a network failure or the
 * time-out are passing and tried again; any other answer (4xx, a redirect, which is never
 * followed) fails the delivery, since asking again would be answered the same.
 */
export function verdictOf(outcome: AttemptOutcome): Verdict {
  if (outcome.kind === 'failed') return { kind: 'retry', error: outcome.reason };
  const { status } = outcome;
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 410)
    return { kind: 'fail', error: 'answered 410 Gone: the endpoint is disabled', disableEndpoint: true };
  if (status === 408 || status === 429 || status >= 500) return { kind: 'retry', error: `answered ${status}` };
  return {
    kind: 'fail',
    error:
      status >= 300 && status < 400 ? `answered ${status}, a redirect, which is not followed` : `answered ${status}`,
    disableEndpoint: false,
  };
}

/**
 * Webhook delivery: events from the log handed on to the endpoints that hear them (one delivery
 * each, whose id is the `webhook-id` of all its attempts), and attempts of due deliveries,
 * retried with exponential back-off and jitter for `retryForHours`. An endpoint that answers 410,
 * or that has failed every attempt for `disableAfterDays`, is disabled.
 */
export class DeliverWebhooks {
  constructor(
    private readonly events: EventLog,
    private readonly endpoints: WebhookEndpoints,
    private readonly deliveries: WebhookDeliveries,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly randomness: Randomness,
    private readonly settings: DeliverySettings,
    private readonly notices: OwnerNotices,
    private readonly users: UserStore,
  ) {}

  /** Hands on up to `limit` events from the log; answers how many events it took. */
  async fanOut(limit: number): Promise<number> {
    const events = await this.events.unhandled(limit);
    if (events.length === 0) return 0;
    const endpoints = await this.listening(await this.endpoints.listAll());
    const deliveries: NewDelivery[] = [];
    const now = this.clock.now();
    for (const event of events) {
      const payload = payloadOf(event);
      for (const endpoint of endpoints.filter((one) => hears(one, event)))
        deliveries.push({
          id: WEBHOOK_ID_PREFIX + this.randomness.uuid(),
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          payload,
          createdAt: now,
        });
    }
    // Queued before the events are marked: a crash between the two hands them on again, and the
    // deliveries already queued (one per event and endpoint) are kept as they are.
    await this.deliveries.enqueue(deliveries);
    await this.events.markHandled(events.map((event) => event.id));
    return events.length;
  }

  /**
   * The endpoints whose owners may still hear what they subscribe to: not blocked, holding
   * Webhooks::Manage, and Webhooks::All for an endpoint of scope all. An owner who lost a
   * permission, was blocked or deleted is sent nothing more; the operator's endpoints always hear.
   */
  private async listening(endpoints: readonly WebhookEndpoint[]): Promise<readonly WebhookEndpoint[]> {
    const owners = new Map<string, Promise<User | undefined>>();
    const ownerOf = (id: string) => {
      let owner = owners.get(id);
      if (owner === undefined) owners.set(id, (owner = this.users.findById(id)));
      return owner;
    };
    const allowed = await Promise.all(
      endpoints.map(async (endpoint) => {
        if (endpoint.disabled) return false;
        if (endpoint.ownerUserId === null) return true;
        const owner = await ownerOf(endpoint.ownerUserId);
        const needed = endpoint.scope === 'all' ? WebhooksPermission.WebhooksAll : WebhooksPermission.WebhooksManage;
        return owner !== undefined && !owner.blocked && grantedBy(owner.permissions, needed);
      }),
    );
    return endpoints.filter((_, index) => allowed[index]);
  }

  /**
   * Forgets events handed on more than 35 days ago: every key they hold stands for something over
   * by then (a token's notices end with it, a quota's period lasts a month at most).
   */
  forgetOldEvents(): Promise<number> {
    return this.events.removeHandledBefore(this.clock.now() - EVENTS_KEPT_MS, 10_000);
  }

  /** One attempt of a delivery `worker` holds, and what it leaves on the delivery and its endpoint. */
  async attempt(delivery: WebhookDelivery, worker: string): Promise<DeliverySettlement> {
    const endpoint = await this.endpoints.find(delivery.endpointId);
    const started = this.clock.now();
    if (endpoint === undefined || endpoint.disabled) {
      const why = endpoint === undefined ? 'the endpoint was deleted' : 'the endpoint is disabled';
      return this.settle(delivery, worker, {
        attempt: { at: started, status: null, error: why, durationMs: 0 },
        status: 'failed',
        nextAttemptAt: started,
        lastError: why,
      });
    }
    const headers = {
      'content-type': 'application/json',
      ...signatureHeaders(signingSecretsAt(endpoint.secrets, started), delivery.id, started, delivery.payload),
    };
    const outcome = await this.sender.send({ url: endpoint.url, headers, body: delivery.payload });
    const at = this.clock.now();
    const attempt = {
      at: started,
      status: outcome.kind === 'answered' ? outcome.status : null,
      error: outcome.kind === 'failed' ? outcome.reason : null,
      durationMs: outcome.durationMs,
    };
    const verdict = verdictOf(outcome);
    await this.recordOnEndpoint(endpoint, verdict, at);
    if (verdict.kind === 'delivered')
      return this.settle(delivery, worker, { attempt, status: 'delivered', nextAttemptAt: at, lastError: null });
    if (verdict.kind === 'fail')
      return this.settle(delivery, worker, { attempt, status: 'failed', nextAttemptAt: at, lastError: verdict.error });
    const next = at + retryDelay(delivery.attempts.length + 1, this.settings, chanceFrom(this.randomness));
    const givesUpAt = delivery.createdAt + this.settings.retryForHours * HOUR_MS;
    return next > givesUpAt
      ? this.settle(delivery, worker, {
          attempt,
          status: 'failed',
          nextAttemptAt: at,
          lastError: `${verdict.error}; retried for ${this.settings.retryForHours} hours`,
        })
      : this.settle(delivery, worker, { attempt, status: 'queued', nextAttemptAt: next, lastError: verdict.error });
  }

  private async settle(
    delivery: WebhookDelivery,
    worker: string,
    settlement: DeliverySettlement,
  ): Promise<DeliverySettlement> {
    await this.deliveries.settle(delivery.id, worker, settlement);
    return settlement;
  }

  /** An endpoint answering 410, or failing every attempt for `disableAfterDays`, is disabled; a delivery ends its failing. */
  private async recordOnEndpoint(endpoint: WebhookEndpoint, verdict: Verdict, at: number): Promise<void> {
    if (verdict.kind === 'delivered') {
      if (endpoint.failingSince !== null)
        await this.endpoints.update(endpoint.id, { failingSince: null, updatedAt: endpoint.updatedAt });
      return;
    }
    const failingSince = endpoint.failingSince ?? at;
    const gone = verdict.kind === 'fail' && verdict.disableEndpoint;
    const failingTooLong = at - failingSince >= this.settings.disableAfterDays * DAY_MS;
    if (gone || failingTooLong) {
      await this.endpoints.update(endpoint.id, { disabled: true, failingSince, updatedAt: at });
      await this.notices.endpointDisabled(
        endpoint,
        gone
          ? 'it answered 410 Gone'
          : `every attempt to deliver to it has failed since ${new Date(failingSince).toISOString()} (${this.settings.disableAfterDays} days or more); the last: ${verdict.error}`,
      );
    } else if (endpoint.failingSince === null)
      await this.endpoints.update(endpoint.id, { failingSince, updatedAt: endpoint.updatedAt });
  }
}
