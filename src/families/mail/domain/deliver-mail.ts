import type { NewDomainEvent } from '../../../domain/events.js';
import { statusViewOf } from './manage-mail.js';
import { chanceFrom, retryDelay } from '../../../domain/retry.js';
import type { Clock, Randomness } from '../../../domain/ports.js';
import {
  settledMessage,
  type DeliveryOutcome,
  type Mailer,
  type MarkdownRenderer,
  type Outbox,
  type OutboxMessage,
  type RecipientOutcome,
  type RenderedMessage,
  type Settlement,
} from './ports.js';
import type { Attachment } from './attachments.js';
import { recipientsOf } from './recipients.js';
import { IDEMPOTENCY_KEY_TTL_MS } from './send-mail.js';
import { fill, withMarkers } from './variables.js';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

/**
 * Both parts of a message: the HTML rendered from its Markdown, each variable's value escaped
 * where it stands (data, never markup); the text part the Markdown itself, values as given. It
 * goes to the recipients still pending.
 */
export function renderMessage(
  message: OutboxMessage,
  attachments: readonly Attachment[],
  markdown: MarkdownRenderer,
  date: number,
): RenderedMessage {
  const { marked, restore } = withMarkers(message.content, message.variables);
  return {
    id: message.id,
    messageId: message.messageId,
    from: { address: message.fromAddress, name: message.fromName },
    to: message.to,
    cc: message.cc,
    bcc: message.bcc,
    replyTo: message.replyTo,
    subject: message.subject,
    text: fill(message.content, message.variables),
    html: restore(markdown.toHtml(marked), escapeHtml),
    attachments,
    date,
    envelopeTo: recipientsOf(message)
      .filter((recipient) => recipient.status === 'pending')
      .map((recipient) => recipient.address),
  };
}

export interface DeliverySettings {
  /** How long a claimed message stays leased to its worker. */
  readonly leaseMs: number;
  /** Attempts before a message that keeps failing for a passing reason is given up on. */
  readonly maxAttempts: number;
  /** The wait after the first failed attempt; it doubles with each further one, up to `retryMaxMs`. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

export { retryDelay };

/** What one attempt came to, for the worker's log: the outcome and what was written of it. */
export interface AttemptReport {
  readonly id: string;
  readonly outcome: DeliveryOutcome;
  readonly settlement: Settlement;
  /** False when the lease had run out or been released: another attempt will be made. */
  readonly recorded: boolean;
}

/**
 * Delivery, one leased message at a time: claim due messages for a worker, render and hand each
 * to the mailer, record the outcome. `sent` is written only after the mailer's server accepted
 * the message. A crash between the two leaves the message leased; once the lease runs out it is
 * sent again with the same Message-ID (delivery is at least once).
 */
export class DeliverMail {
  constructor(
    private readonly outbox: Outbox,
    private readonly mailer: Mailer,
    private readonly markdown: MarkdownRenderer,
    private readonly clock: Clock,
    private readonly randomness: Randomness,
    private readonly settings: DeliverySettings,
  ) {}

  /** Leases up to `limit` due messages to `worker`. Rejects on an outbox outage. */
  claimDue(worker: string, limit: number): Promise<readonly OutboxMessage[]> {
    const now = this.clock.now();
    return this.outbox.claim({ worker, now, leaseUntil: now + this.settings.leaseMs, limit });
  }

  /** One attempt at a message `worker` holds: sent, then its outcome recorded. Rejects when that cannot be recorded (an outbox outage). */
  async attempt(worker: string, message: OutboxMessage): Promise<AttemptReport> {
    return this.record(worker, message, await this.send(message));
  }

  /**
   * Hands the message, its attachments read now, to the mailer: what the server said of it, not
   * yet recorded. Rejects when the attachments cannot be read (an outbox outage): nothing was sent,
   * and the message is tried again once its lease runs out.
   */
  async send(message: OutboxMessage): Promise<DeliveryOutcome> {
    const attachments = await this.outbox.attachments(message.id);
    return this.handOver(renderMessage(message, attachments, this.markdown, this.clock.now()));
  }

  /** Records what an attempt came to, if `worker` still holds the message. Rejects on an outbox outage. */
  async record(worker: string, message: OutboxMessage, outcome: DeliveryOutcome): Promise<AttemptReport> {
    const settlement = this.settlementOf(message, outcome);
    const recorded = await this.outbox.settle(message.id, worker, settlement, eventsOf(message, settlement));
    return { id: message.id, outcome, settlement, recorded };
  }

  /** Forgets the idempotency keys that no longer answer for anything. */
  forgetExpiredKeys(): Promise<number> {
    return this.outbox.forgetKeys(this.clock.now() - IDEMPOTENCY_KEY_TTL_MS);
  }

  /** Hands back what `worker` still holds (of those messages only, when `ids` are given), due again at once for any worker. */
  release(worker: string, ids?: readonly string[]): Promise<number> {
    return this.outbox.release(worker, ids);
  }

  private async handOver(message: RenderedMessage): Promise<DeliveryOutcome> {
    try {
      return await this.mailer.send(message);
    } catch (error) {
      // A mailer rejects only on a bug: the message is tried again rather than lost.
      return { kind: 'retry', reason: `unexpected failure: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /**
   * The message is done once no recipient is pending: sent if the server took it for anyone,
   * failed if for nobody. Until then it is tried again for those pending, up to `maxAttempts`,
   * after which they count as refused.
   */
  private settlementOf(message: OutboxMessage, outcome: DeliveryOutcome): Settlement {
    const attempts = message.attempts + 1;
    const at = this.clock.now();
    const { recipients, reason } = afterAttempt(message, outcome);
    if (recipients.some((recipient) => recipient.status === 'pending')) {
      if (attempts < this.settings.maxAttempts) {
        return {
          status: 'queued',
          attempts,
          nextAttemptAt: at + retryDelay(attempts, this.settings, chanceFrom(this.randomness)),
          reason: reason!,
          recipients,
        };
      }
      const gaveUp = ` (gave up after ${attempts} attempts)`;
      const given = recipients.map((recipient) =>
        recipient.status === 'pending'
          ? { ...recipient, status: 'refused' as const, lastError: `${recipient.lastError}${gaveUp}` }
          : recipient,
      );
      return doneWith(given, attempts, at, `${reason}${gaveUp}`);
    }
    return doneWith(recipients, attempts, at, reason);
  }
}

/** What a settlement announces: mail.delivered or mail.failed once the message is done, with it as mail/status shows it. */
function eventsOf(message: OutboxMessage, settlement: Settlement): readonly NewDomainEvent[] {
  if (settlement.status === 'queued') return [];
  return [
    {
      type: settlement.status === 'sent' ? 'mail.delivered' : 'mail.failed',
      at: settlement.at,
      concerns: message.senderUserId,
      data: { ...statusViewOf(settledMessage(message, settlement)) },
    },
  ];
}

/** A message no recipient of which is pending any more: sent if one of them has it, else failed. */
function doneWith(
  recipients: readonly RecipientOutcome[],
  attempts: number,
  at: number,
  reason: string | undefined,
): Settlement {
  if (recipients.some((recipient) => recipient.status === 'delivered'))
    return { status: 'sent', attempts, at, recipients, ...(reason !== undefined && { reason }) };
  return { status: 'failed', attempts, at, reason: reason ?? 'no recipient was reached', recipients };
}

/**
 * Each recipient's outcome once an attempt is applied to those it went to (the pending ones),
 * and why it did not reach them all, if it did not: the attempt's reason for those it failed as
 * a whole, then each refused recipient with the server's words.
 */
function afterAttempt(
  message: OutboxMessage,
  outcome: DeliveryOutcome,
): { recipients: RecipientOutcome[]; reason: string | undefined } {
  const refusals = new Map((outcome.refusals ?? []).map((refusal) => [refusal.address, refusal]));
  const refused: string[] = [];
  let failedAsAWhole = false;
  const recipients = recipientsOf(message).map((recipient): RecipientOutcome => {
    if (recipient.status !== 'pending') return recipient;
    const refusal = refusals.get(recipient.address);
    if (refusal !== undefined) {
      refused.push(`${recipient.address}: ${refusal.reason}`);
      return {
        address: recipient.address,
        status: refusal.temporary ? 'pending' : 'refused',
        lastError: refusal.reason,
      };
    }
    switch (outcome.kind) {
      case 'accepted':
        return { ...recipient, status: 'delivered' };
      case 'retry':
        failedAsAWhole = true;
        return { ...recipient, lastError: outcome.reason };
      case 'refused':
        failedAsAWhole = true;
        return { ...recipient, status: 'refused', lastError: outcome.reason };
    }
  });
  const reasons =
    outcome.kind !== 'accepted' && (failedAsAWhole || refused.length === 0) ? [outcome.reason, ...refused] : refused;
  return { recipients, reason: reasons.length === 0 ? undefined : reasons.join('; ') };
}
