import type { DeliveryOutcome, Mailer, RenderedMessage } from '../domain/ports.js';

/** How many delivered messages it keeps to be looked at: the most recent ones. */
const KEPT = 1000;

/**
 * Messages kept in memory instead of sent: for tests and trials (`mail.smtpUrl: "memory"`).
 * A test may script what the next attempts come to; unscripted, every message is accepted.
 */
export class MemoryMailer implements Mailer {
  /** The messages accepted, oldest first (the last 1,000). */
  readonly delivered: RenderedMessage[] = [];
  /** Outcomes for the next attempts, first first; each attempt takes one. */
  readonly script: DeliveryOutcome[] = [];
  /** Every attempt, accepted or not. */
  attempts = 0;
  private closed = false;

  async send(message: RenderedMessage): Promise<DeliveryOutcome> {
    if (this.closed) throw new Error('the memory mailer is closed');
    this.attempts += 1;
    const outcome = this.script.shift() ?? { kind: 'accepted' };
    if (outcome.kind === 'accepted') {
      this.delivered.push(message);
      if (this.delivered.length > KEPT) this.delivered.shift();
    }
    return outcome;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
