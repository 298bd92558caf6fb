/**
 * What other families and library users may use of mail: its use cases, what they take and
 * answer, its ports and its permissions; and sending a message through the outbox as the
 * installation (webhooks mail an endpoint's owner when it is disabled).
 */
import { identifier } from '../../../domain/identifier.js';
import type { SendMail } from './send-mail.js';

export type { Accepted, SendMail, SendMailInput } from './send-mail.js';
export type { MessageReader, MessageStatusView, RetryMessage } from './manage-mail.js';
export type { CheckedMail, MailRequest, MessageStatus } from './message.js';
export type { VariableValue, Variables } from './variables.js';
export type { Attachment } from './attachments.js';
export type { Mailbox, NamedAddress } from './mailboxes.js';
export type {
  DeliveryOutcome,
  Mailer,
  MarkdownRenderer,
  NewMessage,
  Outbox,
  OutboxMessage,
  RenderedMessage,
  Settlement,
} from './ports.js';
export { MailPermission } from './permissions.js';
/** The mail family's SendMail, bound when the family is built. */
export const MailSending = identifier<SendMail>('MailSending');
