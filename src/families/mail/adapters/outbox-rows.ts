import type { Attachment } from '../domain/attachments.js';
import type { Mailbox } from '../domain/mailboxes.js';
import type { MessageStatus } from '../domain/message.js';
import type { NewMessage, OutboxMessage, RecipientOutcome, Settlement } from '../domain/ports.js';
import { recipientCount } from '../domain/recipients.js';
import type { Variables } from '../domain/variables.js';
import { toNumber, toNumberOrNull } from '../../../platform/persistence/columns.js';

/** The outbox's tables, and how a message is written to a row and read back. */
export const MAIL_TABLE = 'mail_messages';
export const MAIL_KEYS_TABLE = 'mail_idempotency_keys';
export const MAIL_ATTACHMENTS_TABLE = 'mail_attachments';

/** A list of mailboxes as a column holds it: JSON, each an address (a string) or `{name, address}`. */
const toMailboxes = (column: string): Mailbox[] => JSON.parse(column) as Mailbox[];
const fromMailboxes = (mailboxes: readonly Mailbox[]): string => JSON.stringify(mailboxes);

export interface AttachmentRow {
  message_id: string;
  position: number | string;
  filename: string;
  content_type: string;
  content: Uint8Array;
}

export const toAttachmentRows = (message: NewMessage): AttachmentRow[] =>
  message.attachments.map(({ filename, contentType, content }, position) => ({
    message_id: message.id,
    position,
    filename,
    content_type: contentType,
    content,
  }));

export const toAttachment = (row: AttachmentRow): Attachment => ({
  filename: row.filename,
  contentType: row.content_type,
  // A Buffer from either driver (SQLite's BLOB, PostgreSQL's bytea): the bytes as stored.
  content: Buffer.from(row.content),
});

export interface MessageRow {
  id: string;
  message_id: string;
  sender_user_id: string | null;
  from_address: string;
  from_name: string | null;
  to_addresses: string;
  cc_addresses: string;
  bcc_addresses: string;
  reply_to: string;
  subject: string;
  content: string;
  variables: string;
  status: string;
  attempts: number | string;
  created_at: number | string;
  next_attempt_at: number | string;
  sent_at: number | string | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_until: number | string | null;
  recipient_outcomes: string | null;
  recipient_count: number | string;
}

export const toOutcomes = (column: string | null): RecipientOutcome[] =>
  column === null ? [] : (JSON.parse(column) as RecipientOutcome[]);

export const toMessage = (row: MessageRow): OutboxMessage => ({
  id: row.id,
  messageId: row.message_id,
  senderUserId: row.sender_user_id,
  fromAddress: row.from_address,
  fromName: row.from_name,
  to: toMailboxes(row.to_addresses),
  cc: toMailboxes(row.cc_addresses),
  bcc: toMailboxes(row.bcc_addresses),
  replyTo: toMailboxes(row.reply_to),
  subject: row.subject,
  content: row.content,
  variables: JSON.parse(row.variables) as Variables,
  status: row.status as MessageStatus,
  attempts: toNumber(row.attempts),
  createdAt: toNumber(row.created_at),
  nextAttemptAt: toNumber(row.next_attempt_at),
  sentAt: toNumberOrNull(row.sent_at),
  lastError: row.last_error,
  recipientOutcomes: toOutcomes(row.recipient_outcomes),
});

export const toRow = (message: NewMessage): MessageRow => ({
  id: message.id,
  message_id: message.messageId,
  sender_user_id: message.senderUserId,
  from_address: message.fromAddress,
  from_name: message.fromName,
  to_addresses: fromMailboxes(message.to),
  cc_addresses: fromMailboxes(message.cc),
  bcc_addresses: fromMailboxes(message.bcc),
  reply_to: fromMailboxes(message.replyTo),
  subject: message.subject,
  content: message.content,
  variables: JSON.stringify(message.variables),
  status: 'queued',
  attempts: 0,
  created_at: message.createdAt,
  next_attempt_at: message.nextAttemptAt,
  sent_at: null,
  last_error: null,
  lease_owner: null,
  lease_until: null,
  recipient_outcomes: null,
  recipient_count: recipientCount(message),
});

/** The columns a settlement writes: its status, the attempts, and when it was sent, failed or is due again. */
export function settlementColumns(settlement: Settlement): Partial<MessageRow> {
  const recipient_outcomes = JSON.stringify(settlement.recipients);
  switch (settlement.status) {
    case 'sent':
      return {
        status: 'sent',
        attempts: settlement.attempts,
        sent_at: settlement.at,
        next_attempt_at: settlement.at,
        recipient_outcomes,
        ...(settlement.reason !== undefined && { last_error: settlement.reason }),
      };
    case 'failed':
      return {
        status: 'failed',
        attempts: settlement.attempts,
        last_error: settlement.reason,
        next_attempt_at: settlement.at,
        recipient_outcomes,
      };
    case 'queued':
      return {
        attempts: settlement.attempts,
        last_error: settlement.reason,
        next_attempt_at: settlement.nextAttemptAt,
        recipient_outcomes,
      };
  }
}
