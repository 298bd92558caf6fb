/**
 * What other families may use of mail: sending a message through the outbox, as the installation
 * (webhooks mail an endpoint's owner when it is disabled).
 */
import { identifier } from '../../../domain/identifier.js';
import type { SendMail } from './send-mail.js';

export type { SendMail } from './send-mail.js';
/** The mail family's SendMail, bound when the family is built. */
export const MailSending = identifier<SendMail>('MailSending');
