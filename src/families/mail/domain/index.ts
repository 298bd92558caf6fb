/** What other families and library users may use of mail: its use cases, what they take and answer, its ports and its permissions. */
export type { Accepted, SendMail, SendMailInput } from './send-mail.js';
export type { MessageReader, MessageStatusView, RetryMessage } from './manage-mail.js';
export type { CheckedMail, MailRequest, MessageStatus } from './message.js';
export type { VariableValue, Variables } from './variables.js';
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
