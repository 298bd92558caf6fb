import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../../domain/identity/actor.js';
import type { DomainError } from '../../../domain/errors.js';
import type { Clock, Randomness } from '../../../domain/ports.js';
import { TEST_EVENT_TYPE, type WebhookPayload } from './events.js';
import type { ManageWebhooks } from './manage-webhooks.js';
import type { AttemptOutcome, WebhookSender } from './ports.js';
import { signatureHeaders, signingSecretsAt } from './signing.js';

/** What a test attempt came to, as POST /webhook/test answers it. */
export interface TestOutcome {
  /** The `webhook-id` the attempt carried. */
  readonly webhookId: string;
  /** Whether the receiver answered 2xx. */
  readonly delivered: boolean;
  /** The receiver's status code; null when it did not answer. */
  readonly status: number | null;
  /** Why there was no answer (refused destination, network failure, time-out); null when there was one. */
  readonly error: string | null;
  readonly durationMs: number;
}

export const outcomeOf = (webhookId: string, outcome: AttemptOutcome): TestOutcome =>
  outcome.kind === 'answered'
    ? {
        webhookId,
        delivered: outcome.status >= 200 && outcome.status < 300,
        status: outcome.status,
        error: null,
        durationMs: outcome.durationMs,
      }
    : { webhookId, delivered: false, status: null, error: outcome.reason, durationMs: outcome.durationMs };

/** Prefix of the id of every delivery, as Standard Webhooks' examples write them. */
export const WEBHOOK_ID_PREFIX = 'msg_';

/**
 * Sends a `webhook.test` event to one endpoint now, signed as every delivery is, and answers how
 * the attempt went. It is not queued and not retried: its answer is the attempt's. A disabled
 * endpoint is sent one too, so that it can be checked before it is enabled again.
 */
export class TestWebhook {
  constructor(
    private readonly manage: ManageWebhooks,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly randomness: Randomness,
  ) {}

  async execute(actor: Actor, id: string): Promise<E.Either<DomainError, TestOutcome>> {
    const found = await this.manage.endpoint(actor, id);
    if (E.isLeft(found)) return found;
    const endpoint = found.right;
    const now = this.clock.now();
    const webhookId = WEBHOOK_ID_PREFIX + this.randomness.uuid();
    const payload: WebhookPayload = {
      type: TEST_EVENT_TYPE,
      timestamp: new Date(now).toISOString(),
      data: { endpointId: endpoint.id, url: endpoint.url },
    };
    const body = JSON.stringify(payload);
    const headers = {
      'content-type': 'application/json',
      ...signatureHeaders(signingSecretsAt(endpoint.secrets, now), webhookId, now, body),
    };
    const outcome = await this.sender.send({ url: endpoint.url, headers, body });
    return E.right(outcomeOf(webhookId, outcome));
  }
}
