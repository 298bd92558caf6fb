import type { NewDomainEvent } from '../../../domain/events.js';
import { identifier } from '../../../domain/identifier.js';
import type { Attachment } from './attachments.js';
import type { Mailbox } from './mailboxes.js';
import type { MessageStatus, RecipientStatus } from './message.js';
import type { QuotaRefusal, QuotaWindow } from './quota.js';
import type { Variables } from './variables.js';

/** Who a message goes to, and where answers to it go: addresses with their display names, as the message's headers carry them. */
export interface Recipients {
  readonly to: readonly Mailbox[];
  readonly cc: readonly Mailbox[];
  readonly bcc: readonly Mailbox[];
  readonly replyTo: readonly Mailbox[];
}

/** What became of one recipient of a message so far, and the last reason it was not taken, if any (kept once it is). */
export interface RecipientOutcome {
  readonly address: string;
  readonly status: RecipientStatus;
  readonly lastError: string | null;
}

/** A message as the outbox keeps it, from acceptance until it is sent or given up on. */
export interface OutboxMessage extends Recipients {
  readonly id: string;
  /** The Message-ID header, `<id@sender-domain>`, made at acceptance: the same on every attempt. */
  readonly messageId: string;
  /** The user whose token sent it; null for the operator, or a library caller acting as the installation. */
  readonly senderUserId: string | null;
  readonly fromAddress: string;
  readonly fromName: string | null;
  /** With its variables filled in. */
  readonly subject: string;
  /** Markdown as written, rendered with `variables` at each attempt. */
  readonly content: string;
  readonly variables: Variables;
  readonly status: MessageStatus;
  /** Attempts made so far. */
  readonly attempts: number;
  readonly createdAt: number;
  /** When a queued message is due; for a sent or failed one, when that happened. */
  readonly nextAttemptAt: number;
  readonly sentAt: number | null;
  /** Why the last attempt failed, if it did, or which recipients it could not reach and why. */
  readonly lastError: string | null;
  /**
   * Each recipient's outcome, as the last recorded attempt left it (every address of to, cc and
   * bcc once); empty until an attempt is recorded. `recipientsOf` reads it.
   */
  readonly recipientOutcomes: readonly RecipientOutcome[];
}

/**
 * A message to store, with its attachments: stored with it, in the same step, but read apart
 * (`Outbox.attachments`), only when it is sent, so that lists and claims do not carry their bytes.
 */
export type NewMessage = Omit<OutboxMessage, 'status' | 'attempts' | 'sentAt' | 'lastError' | 'recipientOutcomes'> & {
  readonly attachments: readonly Attachment[];
};

/**
 * An Idempotency-Key as the outbox stores it: the key, the scope it belongs to (one token, or the
 * operator), a hash of the request it came with, and when keys stored before then have expired.
 */
export interface IdempotencyClaim {
  readonly scope: string;
  readonly key: string;
  readonly requestHash: string;
  readonly expiredBefore: number;
}

/** What storing a new message did: queued it, found its key taken by an earlier request (the same one, or another), or found its sender over quota. */
export type EnqueueOutcome =
  | { readonly kind: 'queued' }
  | { readonly kind: 'replayed'; readonly id: string; readonly messageId: string }
  | { readonly kind: 'conflict' }
  | ({ readonly kind: 'overQuota' } & QuotaRefusal);

/** Due messages for one worker, leased to it until `leaseUntil`. */
export interface ClaimRequest {
  readonly worker: string;
  readonly now: number;
  readonly leaseUntil: number;
  readonly limit: number;
}

/** The order `claim` leases messages in: the attempt due first, then the message accepted first. */
export const oldestDueFirst = (a: OutboxMessage, b: OutboxMessage): number =>
  a.nextAttemptAt - b.nextAttemptAt || a.createdAt - b.createdAt;

/**
 * What an attempt comes to: sent (to every recipient but those refused for good; `reason` says
 * who and why, if any was), given up, or another attempt at `nextAttemptAt` for the recipients
 * not yet reached; with each recipient's outcome so far.
 */
export type Settlement =
  | {
      readonly status: 'sent';
      readonly attempts: number;
      readonly at: number;
      readonly recipients: readonly RecipientOutcome[];
      readonly reason?: string;
    }
  | {
      readonly status: 'failed';
      readonly attempts: number;
      readonly at: number;
      readonly reason: string;
      readonly recipients: readonly RecipientOutcome[];
    }
  | {
      readonly status: 'queued';
      readonly attempts: number;
      readonly nextAttemptAt: number;
      readonly reason: string;
      readonly recipients: readonly RecipientOutcome[];
    };

/** A message as a settlement leaves it. */
export function settledMessage(message: OutboxMessage, settlement: Settlement): OutboxMessage {
  const recorded = { ...message, attempts: settlement.attempts, recipientOutcomes: settlement.recipients };
  switch (settlement.status) {
    case 'sent':
      return {
        ...recorded,
        status: 'sent',
        sentAt: settlement.at,
        nextAttemptAt: settlement.at,
        lastError: settlement.reason ?? message.lastError,
      };
    case 'failed':
      return { ...recorded, status: 'failed', lastError: settlement.reason, nextAttemptAt: settlement.at };
    case 'queued':
      return { ...recorded, lastError: settlement.reason, nextAttemptAt: settlement.nextAttemptAt };
  }
}

export interface OutboxFilter {
  readonly status?: MessageStatus;
  readonly limit: number;
  /** Only the messages this user sent. */
  readonly senderUserId?: string;
  /** Only the messages after this one in the list's order (older, or as old with a smaller id): where a page ended. */
  readonly before?: { readonly createdAt: number; readonly id: string };
}

/**
 * The durable outbox: a message is accepted once `enqueue` has resolved (written and committed),
 * and leaves `queued` only through `settle` by the worker holding its lease. Any number of
 * workers may claim at once; a message is leased to one of them at a time, and a lease that runs
 * out (its worker died) makes the message due again. Every method rejects only on outages.
 */
export interface Outbox {
  /**
   * Stores a message, or under a key already used answers the earlier message (same request) or a
   * conflict (another). With `quota`, a message whose recipients would take its sender's messages
   * created within a window (`windowStart`, from the message's `createdAt`) past the window's limit
   * is refused instead (`roomAt` says until when), storing nothing, key included; the count and the
   * write are one step, so that senders on several instances at once cannot pass the limit together.
   */
  enqueue(message: NewMessage, idempotency?: IdempotencyClaim, quota?: readonly QuotaWindow[]): Promise<EnqueueOutcome>;
  /** Leases up to `limit` due messages (queued, due, not leased or lease run out) to the worker, oldest due first. */
  claim(request: ClaimRequest): Promise<readonly OutboxMessage[]>;
  /** Records an attempt and ends the worker's lease; false (nothing written) when the worker no longer holds it. */
  settle(id: string, worker: string, settlement: Settlement, events?: readonly NewDomainEvent[]): Promise<boolean>;
  /** Ends every lease the worker holds (of those messages only, when `ids` are given), its messages due again as they were; how many. */
  release(worker: string, ids?: readonly string[]): Promise<number>;
  find(id: string): Promise<OutboxMessage | undefined>;
  /** A message's attachments, in the order they were given; none for a message without any, or unknown. */
  attachments(id: string): Promise<readonly Attachment[]>;
  /** Newest first. */
  list(filter: OutboxFilter): Promise<readonly OutboxMessage[]>;
  /** How many messages are queued, sent and failed (every status, 0 for none): the outbox's depth, for metrics. */
  countByStatus(): Promise<Readonly<Record<MessageStatus, number>>>;
  /** Forgets the idempotency keys stored before `expiredBefore`; how many. */
  forgetKeys(expiredBefore: number): Promise<number>;
  /** A failed message queued again, due at `now`, its attempts counted from 0, its refused recipients pending again (`reopenRefused`); or why not. */
  requeue(id: string, now: number): Promise<'queued' | 'not failed' | 'missing'>;
}
export const Outbox = identifier<Outbox>('Outbox');

/** A message as it goes out: both parts rendered, variables filled in. */
export interface RenderedMessage extends Recipients {
  readonly id: string;
  readonly messageId: string;
  readonly from: { readonly address: string; readonly name: string | null };
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly attachments: readonly Attachment[];
  /** The Date header: when this attempt was made. */
  readonly date: number;
  /**
   * Whom this attempt goes to (the SMTP envelope): the recipients the server has neither taken
   * nor refused for good, so that nobody gets the message twice. The headers name everyone.
   */
  readonly envelopeTo: readonly string[];
}

/** A recipient of the attempt the server would not take: for now (a 4xx answer, `temporary`) or for good. */
export interface RecipientRefusal {
  readonly address: string;
  readonly temporary: boolean;
  readonly reason: string;
}

/**
 * What became of one attempt: the server took it, may take it later (try again), or never will.
 * Recipients the server refused one by one are in `refusals`; the kind says what became of the
 * attempt's other recipients (with every recipient refused, the kind says nothing more).
 */
export type DeliveryOutcome =
  | { readonly kind: 'accepted'; readonly refusals?: readonly RecipientRefusal[] }
  | { readonly kind: 'retry'; readonly reason: string; readonly refusals?: readonly RecipientRefusal[] }
  | { readonly kind: 'refused'; readonly reason: string; readonly refusals?: readonly RecipientRefusal[] };

/**
 * Where messages go: an SMTP server, `.eml` files, memory. A failure to deliver is an outcome:
 * connection failures, time-outs and temporary (4xx) answers are `retry`, permanent (5xx)
 * answers `refused`, and so are each recipient's. It rejects only on bugs.
 */
export interface Mailer {
  send(message: RenderedMessage): Promise<DeliveryOutcome>;
  /** Lets go of connections; nothing is sent after it. */
  close(): Promise<void>;
}
export const Mailer = identifier<Mailer>('Mailer');

/** Markdown as HTML. Raw HTML in the Markdown is escaped, never passed through. */
export interface MarkdownRenderer {
  toHtml(markdown: string): string;
}
export const MarkdownRenderer = identifier<MarkdownRenderer>('MarkdownRenderer');
