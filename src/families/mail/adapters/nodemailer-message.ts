import type { MailComposerOptions } from 'nodemailer/lib/mail-composer';
import { asciiAddress } from '../domain/addresses.js';
import type { RenderedMessage } from '../domain/ports.js';

/**
 * A rendered message as nodemailer composes it, for SMTP and for `.eml` files alike: the
 * installation's address with the sender's display name, both parts, and the Message-ID made at
 * acceptance. Addresses go with their domains in ASCII, in the headers and the SMTP envelope
 * alike; the envelope holds only the recipients this attempt is for, the headers everyone.
 * Nodemailer reads nothing from files or URLs here: every part is given as text.
 */
export const composedMessage = (message: RenderedMessage): MailComposerOptions => ({
  from:
    message.from.name === null
      ? asciiAddress(message.from.address)
      : { name: message.from.name, address: asciiAddress(message.from.address) },
  to: message.to.map(asciiAddress),
  cc: message.cc.map(asciiAddress),
  bcc: message.bcc.map(asciiAddress),
  replyTo: message.replyTo.map(asciiAddress),
  subject: message.subject,
  text: message.text,
  html: message.html,
  messageId: message.messageId,
  date: new Date(message.date),
  envelope: { from: asciiAddress(message.from.address), to: message.envelopeTo.map(asciiAddress) },
});
