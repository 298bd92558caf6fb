import type { Logger } from 'pino';
import type { AttemptReport, DeliverMail } from '../domain/mail/deliver-mail.js';
import type { Mailer, OutboxMessage } from '../domain/mail/ports.js';
import type { LifecycleComponent } from './lifecycle.js';

export const MAIL_WORKER = 'mail delivery';

/** How often expired idempotency keys are forgotten. */
const FORGET_KEYS_EVERY_MS = 60 * 60 * 1000;

export interface MailWorkerSettings {
  /** The worker's name in the outbox's leases: one per process. */
  readonly id: string;
  /** Messages in flight at once. */
  readonly concurrency: number;
  readonly pollIntervalMs: number;
  /** How long a stop waits for the messages in flight before it hands them back. */
  readonly stopGraceMs: number;
}

/** What the loop waits on until something may have changed; a ring while nobody waits is kept for the next wait. */
class Wakeup {
  private resolve: (() => void) | undefined;
  private rung = false;

  /** Resolves at the next `ring` (at once if one came since the last wait), or after `ms` when given. */
  wait(ms?: number): Promise<void> {
    if (this.rung) {
      this.rung = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => this.ring(), ms);
      this.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  ring(): void {
    const resolve = this.resolve;
    this.resolve = undefined;
    if (resolve) resolve();
    else this.rung = true;
  }
}

/**
 * The background worker that drains the outbox: it claims due messages (leased to it), keeps up
 * to `concurrency` attempts in flight, and claims again as they finish, in batches of at least
 * half the free slots so that claims share commits. Idle, it looks again every poll interval, or
 * at once when this process accepts a message (`wake`).
 *
 * Stopping: no more claims; the attempts in flight get `stopGraceMs` to finish, and whatever is
 * still held after that is handed back (its lease ended), so another instance, or this one after
 * a restart, sends it. A send still under way then may arrive twice, with the same Message-ID.
 */
export class MailWorker implements LifecycleComponent {
  readonly name = MAIL_WORKER;
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  /** Attempts begun and not yet recorded: what a stop waits for. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts whose message is with the mailer: what `concurrency` bounds. */
  private readonly sending = new Set<Promise<unknown>>();
  private readonly wakeup = new Wakeup();
  private lastKeysForgotten = 0;
  /** Whether the outbox was found down: logged once per outage, not once per poll. */
  private outboxDown = false;

  constructor(
    private readonly deliver: DeliverMail,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly settings: MailWorkerSettings,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** There may be work: look now rather than at the next poll. */
  wake(): void {
    this.wakeup.ring();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeup.ring();
    await this.loop;
    if (this.inFlight.size > 0) {
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(this.inFlight), new Promise((resolve) => (grace = setTimeout(resolve, this.settings.stopGraceMs)))]);
      clearTimeout(grace);
    }
    if (this.inFlight.size > 0) {
      const cut = this.inFlight.size;
      try {
        await this.deliver.release(this.settings.id);
        this.logger.warn({ messages: cut }, 'mail delivery stopped with messages in flight; handed back to the outbox, they may arrive twice');
      } catch (error) {
        this.logger.warn({ err: error, messages: cut }, 'mail delivery stopped with messages in flight and could not hand them back; they are sent again once their lease runs out');
      }
    }
    await this.mailer.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      await this.forgetKeysNowAndThen();
      const free = this.settings.concurrency - this.sending.size;
      if (free < Math.ceil(this.settings.concurrency / 2)) {
        await this.wakeup.wait();
        continue;
      }
      let claimed: readonly OutboxMessage[];
      try {
        claimed = await this.deliver.claimDue(this.settings.id, free);
        this.outboxUp();
      } catch (error) {
        this.outboxFailed(error);
        await this.wakeup.wait(this.settings.pollIntervalMs);
        continue;
      }
      for (const message of claimed) this.attempt(message);
      if (claimed.length < free && this.running) await this.wakeup.wait(this.settings.pollIntervalMs);
    }
  }

  /**
   * One attempt: its slot is taken while the message is being sent, and freed as soon as the
   * server has answered, while the outcome is still being recorded; so the outcomes of many
   * attempts share a commit rather than each waiting for its own.
   */
  private attempt(message: OutboxMessage): void {
    const sending = this.deliver.send(message).finally(() => {
      this.sending.delete(sending);
      this.wakeup.ring();
    });
    this.sending.add(sending);
    const attempt = sending
      .then((outcome) => this.deliver.record(this.settings.id, message, outcome))
      .then(
        (report) => this.report(report),
        (error: unknown) => this.logger.error({ err: error, id: message.id }, 'mail delivery could not record an attempt; the message is tried again once its lease runs out'),
      );
    const tracked = attempt.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /** One line per attempt that did not end in `sent`; message ids, never addresses or contents. */
  private report({ id, settlement, recorded }: AttemptReport): void {
    if (!recorded) this.logger.warn({ id, outcome: settlement.status }, 'mail attempt made after its lease ended; not recorded, the message is tried again');
    else if (settlement.status === 'failed') this.logger.error({ id, attempts: settlement.attempts, reason: settlement.reason }, 'mail message failed');
    else if (settlement.status === 'queued') {
      this.logger.warn({ id, attempts: settlement.attempts, reason: settlement.reason, nextAttemptAt: new Date(settlement.nextAttemptAt).toISOString() }, 'mail attempt failed; will retry');
    }
  }

  private async forgetKeysNowAndThen(): Promise<void> {
    const now = Date.now();
    if (now - this.lastKeysForgotten < FORGET_KEYS_EVERY_MS) return;
    this.lastKeysForgotten = now;
    try {
      await this.deliver.forgetExpiredKeys();
    } catch (error) {
      this.outboxFailed(error);
    }
  }

  private outboxFailed(error: unknown): void {
    if (!this.outboxDown) this.logger.error({ err: error }, 'mail delivery cannot reach the outbox; retrying every poll interval');
    this.outboxDown = true;
  }

  private outboxUp(): void {
    if (this.outboxDown) this.logger.info('mail delivery reaches the outbox again');
    this.outboxDown = false;
  }
}
