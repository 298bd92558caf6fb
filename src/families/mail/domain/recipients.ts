import { addressOf, nameOf } from './mailboxes.js';
import type { OutboxMessage, RecipientOutcome, Recipients } from './ports.js';

/** How many recipients a message names in to, cc and bcc together: what the per-message limit and the sender's quota count. */
export const recipientCount = ({ to, cc, bcc }: Pick<Recipients, 'to' | 'cc' | 'bcc'>): number =>
  to.length + cc.length + bcc.length;

/** Whom a message goes to, the SMTP envelope: every address of to, cc and bcc, once each, in that order. */
export const envelopeOf = ({ to, cc, bcc }: Pick<Recipients, 'to' | 'cc' | 'bcc'>): string[] => [
  ...new Set([...to, ...cc, ...bcc].map(addressOf)),
];

/** The display name a message gives an address: the first it was given with in to, cc or bcc; null for none. */
export function displayNameOf({ to, cc, bcc }: Pick<Recipients, 'to' | 'cc' | 'bcc'>, address: string): string | null {
  for (const mailbox of [...to, ...cc, ...bcc]) {
    const name = nameOf(mailbox);
    if (name !== null && addressOf(mailbox) === address) return name;
  }
  return null;
}

/**
 * Each recipient's outcome: as the last recorded attempt left it, or, for one it did not record
 * (no attempt yet, or a message stored before outcomes were kept), as the message's status says:
 * pending while queued, delivered once sent, refused with the message's reason once failed.
 */
export function recipientsOf(message: OutboxMessage): RecipientOutcome[] {
  const recorded = new Map(message.recipientOutcomes.map((outcome) => [outcome.address, outcome]));
  return envelopeOf(message).map((address): RecipientOutcome => {
    const outcome = recorded.get(address);
    if (outcome !== undefined) return outcome;
    switch (message.status) {
      case 'queued':
        return { address, status: 'pending', lastError: null };
      case 'sent':
        return { address, status: 'delivered', lastError: null };
      case 'failed':
        return { address, status: 'refused', lastError: message.lastError };
    }
  });
}

/** A failed message's outcomes once it is queued again: those refused are tried again, keeping why they were refused. */
export const reopenRefused = (outcomes: readonly RecipientOutcome[]): RecipientOutcome[] =>
  outcomes.map((outcome) => (outcome.status === 'refused' ? { ...outcome, status: 'pending' } : outcome));
