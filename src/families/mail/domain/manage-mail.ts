import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, actorUser, actorUserId, type Actor } from '../../../domain/identity/actor.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import { orOutage } from '../../../domain/outage.js';
import { checkPageLimit, pageOf, withLookahead } from '../../../domain/paging.js';
import { MailPermission } from './permissions.js';
import type { Clock } from '../../../domain/ports.js';
import { MESSAGE_ID, MESSAGE_ID_RULE, MESSAGE_STATUSES, type MessageStatus } from './message.js';
import type { Attachment } from './attachments.js';
import type { Outbox, OutboxMessage, RecipientOutcome } from './ports.js';
import { addressOf } from './mailboxes.js';
import { displayNameOf, recipientsOf } from './recipients.js';
import { OUTBOX_DOWN } from './send-mail.js';

/** One recipient as a status shows it: its outcome, and the display name it was given (null for none). */
export interface RecipientView extends RecipientOutcome {
  readonly name: string | null;
}

/** What a sender sees of a message: where it is, not what it says. Times are ISO 8601. */
export interface MessageStatusView {
  readonly id: string;
  readonly status: MessageStatus;
  /** The addresses of to; their names are in `recipients`. */
  readonly to: readonly string[];
  readonly subject: string;
  readonly attempts: number;
  readonly createdAt: string;
  readonly sentAt: string | null;
  /** When the next attempt is due; null once sent or failed. */
  readonly nextAttemptAt: string | null;
  readonly lastError: string | null;
  /** Every recipient of to, cc and bcc, once each: delivered, pending (another attempt will be made) or refused for good. */
  readonly recipients: readonly RecipientView[];
}

const iso = (time: number): string => new Date(time).toISOString();

export const statusViewOf = (message: OutboxMessage): MessageStatusView => ({
  id: message.id,
  status: message.status,
  to: message.to.map(addressOf),
  subject: message.subject,
  attempts: message.attempts,
  createdAt: iso(message.createdAt),
  sentAt: message.sentAt === null ? null : iso(message.sentAt),
  nextAttemptAt: message.status === 'queued' ? iso(message.nextAttemptAt) : null,
  lastError: message.lastError,
  recipients: recipientsOf(message).map(({ address, status, lastError }) => ({
    address,
    name: displayNameOf(message, address),
    status,
    lastError,
  })),
});

export const DEFAULT_MESSAGE_PAGE = 20;
export const MAX_MESSAGE_PAGE = 100;
/** Where a page ends: the last message's creation (ms) and id. */
export const MESSAGE_CURSOR = /^(\d{1,15})\.([0-9a-f-]{36})$/;

export interface MessagePageRequest {
  readonly status?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

export interface MessagePage {
  readonly messages: readonly MessageStatusView[];
  readonly nextCursor: string | null;
}

const checkId = (id: string): E.Either<DomainError, string> =>
  MESSAGE_ID.test(id) ? E.right(id) : E.left(invalidInput('id', `id must be ${MESSAGE_ID_RULE}`));

/** The statuses a list can be narrowed to, or the rule it breaks. */
export const checkStatus = (status: string): E.Either<DomainError, MessageStatus> =>
  (MESSAGE_STATUSES as readonly string[]).includes(status)
    ? E.right(status as MessageStatus)
    : E.left(invalidInput('status', `status must be one of ${MESSAGE_STATUSES.join(', ')}`));

/**
 * Reading the outbox. A sender sees their own messages with Mail::Send; anyone else's needs
 * Mail::Read, and without it such a message is answered as if it did not exist, so an id tells
 * nobody what others send.
 */
export class MessageReader {
  constructor(private readonly outbox: Outbox) {}

  async status(actor: Actor, id: string): Promise<E.Either<DomainError, MessageStatusView>> {
    const found = await this.visible(actor, id);
    return E.isLeft(found) ? found : E.right(statusViewOf(found.right));
  }

  /** The whole message, as stored, its attachments too: for those who may read everybody's (Mail::Read), such as the operator. */
  async show(
    actor: Actor,
    id: string,
  ): Promise<E.Either<DomainError, OutboxMessage & { readonly attachments: readonly Attachment[] }>> {
    if (!actorHolds(actor, MailPermission.MailRead))
      return E.left({ _tag: 'NotAuthorized', permission: MailPermission.MailRead });
    const found = await this.visible(actor, id);
    if (E.isLeft(found)) return found;
    const attachments = await orOutage(this.outbox.attachments(id), OUTBOX_DOWN);
    return E.isLeft(attachments) ? attachments : E.right({ ...found.right, attachments: attachments.right });
  }

  /** Newest first, at most `limit`, of one status or all. */
  async list(
    actor: Actor,
    filter: { readonly status?: string; readonly limit: number },
  ): Promise<E.Either<DomainError, readonly OutboxMessage[]>> {
    if (!actorHolds(actor, MailPermission.MailRead))
      return E.left({ _tag: 'NotAuthorized', permission: MailPermission.MailRead });
    const status = filter.status === undefined ? E.right(undefined) : checkStatus(filter.status);
    if (E.isLeft(status)) return status;
    if (!Number.isInteger(filter.limit) || filter.limit < 1)
      return E.left(invalidInput('limit', 'limit must be a whole number of at least 1'));
    return orOutage(this.outbox.list({ status: status.right, limit: filter.limit }), OUTBOX_DOWN);
  }

  /**
   * A page of the outbox, newest first: everybody's messages for a holder of Mail::Read, the
   * caller's own for a sender (Mail::Send), as each may read them one by one.
   */
  async page(actor: Actor, request: MessagePageRequest): Promise<E.Either<DomainError, MessagePage>> {
    const readsOthers = actorHolds(actor, MailPermission.MailRead);
    if (!readsOthers && !actorHolds(actor, MailPermission.MailSend))
      return E.left({ _tag: 'NotAuthorized', permission: MailPermission.MailSend });
    const { limit = DEFAULT_MESSAGE_PAGE, cursor } = request;
    const status = request.status === undefined ? E.right(undefined) : checkStatus(request.status);
    if (E.isLeft(status)) return status;
    const wrongLimit = checkPageLimit(limit, MAX_MESSAGE_PAGE);
    if (wrongLimit) return E.left(wrongLimit);
    const before = cursor === undefined ? undefined : MESSAGE_CURSOR.exec(cursor);
    if (before === null) return E.left(invalidInput('cursor', 'cursor must be the nextCursor of the page before'));
    // A sender with no user of its own (the operator's key file) sent nothing it could list as its own.
    const sender = readsOthers ? undefined : (actorUserId(actor) ?? null);
    if (sender === null) return E.right({ messages: [], nextCursor: null });
    const listed = await orOutage(
      this.outbox.list({
        status: status.right,
        senderUserId: sender,
        limit: withLookahead(limit),
        before: before && { createdAt: Number(before[1]), id: before[2]! },
      }),
      OUTBOX_DOWN,
    );
    if (E.isLeft(listed)) return listed;
    const { rows, nextCursor } = pageOf(listed.right, limit, (last) => `${last.createdAt}.${last.id}`);
    return E.right({ messages: rows.map(statusViewOf), nextCursor });
  }

  private async visible(actor: Actor, id: string): Promise<E.Either<DomainError, OutboxMessage>> {
    const readsOthers = actorHolds(actor, MailPermission.MailRead);
    if (!readsOthers && !actorHolds(actor, MailPermission.MailSend))
      return E.left({ _tag: 'NotAuthorized', permission: MailPermission.MailSend });
    const checked = checkId(id);
    if (E.isLeft(checked)) return checked;
    const found = await orOutage(this.outbox.find(id), OUTBOX_DOWN);
    if (E.isLeft(found)) return found;
    const message = found.right;
    const own = message !== undefined && message.senderUserId !== null && message.senderUserId === actorUser(actor)?.id;
    return message !== undefined && (own || readsOthers) ? E.right(message) : E.left({ _tag: 'MessageNotFound', id });
  }
}

/** A failed message back in the queue, due now, with a fresh count of attempts. */
export class RetryMessage {
  constructor(
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly onQueued: () => void = () => {},
  ) {}

  async execute(actor: Actor, id: string): Promise<E.Either<DomainError, OutboxMessage>> {
    const missing = [MailPermission.MailRead, MailPermission.MailSend].find(
      (permission) => !actorHolds(actor, permission),
    );
    if (missing !== undefined) return E.left({ _tag: 'NotAuthorized', permission: missing });
    const checked = checkId(id);
    if (E.isLeft(checked)) return checked;
    const requeued = await orOutage(this.outbox.requeue(id, this.clock.now()), OUTBOX_DOWN);
    if (E.isLeft(requeued)) return requeued;
    const found = await orOutage(this.outbox.find(id), OUTBOX_DOWN);
    if (E.isLeft(found)) return found;
    if (requeued.right === 'missing' || found.right === undefined) return E.left({ _tag: 'MessageNotFound', id });
    if (requeued.right === 'not failed') return E.left({ _tag: 'MessageNotRetryable', id, status: found.right.status });
    this.onQueued();
    return E.right(found.right);
  }
}
