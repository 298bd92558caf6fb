import type { MailComposerOptions } from 'nodemailer/lib/mail-composer';
import { asciiAddress } from '../domain/addresses.js';
import { addressOf, nameOf, type Mailbox } from '../domain/mailboxes.js';
import type { RenderedMessage } from '../domain/ports.js';

/**
 * A rendered message as nodemailer composes it, for SMTP and for `.eml` files alike: the
 * installation's address with the sender's display name, both parts, and the Message-ID made at
 * acceptance. Addresses go with their domains in ASCII, in the headers and the SMTP envelope
 * alike; the envelope holds only the recipients this attempt is for, the headers everyone.
 * Nodemailer reads nothing from files or URLs here: every part is given as text or bytes.
 */
/** A mailbox for a header: its address in ASCII, with its display name (which nodemailer quotes or encodes) if it has one. */
const header = (mailbox: Mailbox): string | { name: string; address: string } => {
  const name = nameOf(mailbox);
  const address = asciiAddress(addressOf(mailbox));
  return name === null ? address : { name, address };
};

export const composedMessage = (message: RenderedMessage): MailComposerOptions => ({
  from:
    message.from.name === null
      ? asciiAddress(message.from.address)
      : { name: message.from.name, address: asciiAddress(message.from.address) },
  to: message.to.map(header),
  cc: message.cc.map(header),
  bcc: message.bcc.map(header),
  replyTo: message.replyTo.map(header),
  subject: message.subject,
  text: message.text,
  html: message.html,
  attachments: message.attachments.map(({ filename, contentType, content }) => ({
    filename,
    contentType,
    content: Buffer.from(content),
    contentDisposition: 'attachment' as const,
  })),
  messageId: message.messageId,
  date: new Date(message.date),
  envelope: { from: asciiAddress(message.from.address), to: message.envelopeTo.map(asciiAddress) },
});
