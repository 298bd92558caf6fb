import type { Logger } from 'pino';
import type { Clock } from '../../domain/ports.js';
import type { AttemptReport, DeliverMail } from './domain/deliver-mail.js';
import type { Mailer, OutboxMessage } from './domain/ports.js';
import type { LifecycleComponent } from '../../platform/lifecycle.js';
import { Wakeup } from '../../platform/wakeup.js';

export const MAIL_WORKER = 'mail delivery';

/** How often expired idempotency keys are forgotten. */
const FORGET_KEYS_EVERY_MS = 60 * 60 * 1000;

export interface MailWorkerSettings {
  /** The worker's name in the outbox's leases: one per process. */
  readonly id: string;
  /** Messages claimed at once: those being sent and those waiting for a connection. */
  readonly concurrency: number;
  /** Messages handed to the mailer at once: one per connection, so that none waits inside it. */
  readonly sendsAtOnce: number;
  readonly pollIntervalMs: number;
  /** How long from the beginning of a stop the messages being sent have to finish before they are handed back. */
  readonly stopGraceMs: number;
}

/**
 * The background worker that drains the outbox: it claims due messages (leased to it), up to
 * `concurrency` at once, and claims again as they finish, in batches of at least half the free
 * slots so that claims share commits. It hands the mailer `sendsAtOnce` of them at a time (one
 * per connection); the others wait here, not in the mailer, where a stop could not take them
 * back. Idle, it looks again every poll interval, or at once when this process accepts a message
 * (`wake`).
 *
 * Stopping begins with the stop of the process (`drain`), not once its requests are answered: no
 * more claims, and what waits for a connection is handed back at once, due for any instance. The
 * messages being sent get until `stopGraceMs` after that to finish, and whatever is still held
 * then is handed back too, so another instance, or this one after a restart, sends it. Only a send
 * the server has not answered by then may arrive twice, with the same Message-ID.
 */
export class MailWorker implements LifecycleComponent {
  readonly name = MAIL_WORKER;
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  /** When the messages being sent must have finished; set once a stop has begun. */
  private stopBy: number | undefined;
  /** Handing back what waits for a connection, once a stop has begun. */
  private handingBack: Promise<void> = Promise.resolve();
  /** Claimed, and waiting for a connection: handed back at once by a stop. */
  private readonly waiting: OutboxMessage[] = [];
  /** Attempts begun and not yet recorded: what a stop waits for. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts whose message is with the mailer: what `sendsAtOnce` bounds. */
  private readonly sending = new Set<Promise<unknown>>();
  private readonly wakeup = new Wakeup();
  private lastKeysForgotten = 0;
  /** Whether the outbox was found down: logged once per outage, not once per poll. */
  private outboxDown = false;

  constructor(
    private readonly deliver: DeliverMail,
    private readonly mailer: Mailer,
    /** When a stop's grace ends and when expired idempotency keys were last forgotten. */
    private readonly clock: Clock,
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

  /** The process is stopping: claim nothing more, and hand back at once what has not been handed to the mailer. */
  drain(): void {
    if (this.stopBy !== undefined) return;
    this.stopBy = this.clock.now() + this.settings.stopGraceMs;
    this.running = false;
    this.wakeup.ring();
    this.handingBack = this.handBackWaiting();
  }

  async stop(): Promise<void> {
    this.drain();
    await this.loop;
    await this.handingBack;
    const graceLeft = this.stopBy! - this.clock.now();
    if (this.inFlight.size > 0 && graceLeft > 0) {
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(this.inFlight),
        new Promise((resolve) => (grace = setTimeout(resolve, graceLeft))),
      ]);
      clearTimeout(grace);
    }
    if (this.inFlight.size > 0) {
      const cut = this.inFlight.size;
      try {
        await this.deliver.release(this.settings.id);
        this.logger.warn(
          { messages: cut },
          'mail delivery stopped with messages in flight; handed back to the outbox, they may arrive twice',
        );
      } catch (error) {
        this.logger.warn(
          { err: error, messages: cut },
          'mail delivery stopped with messages in flight and could not hand them back; they are sent again once their lease runs out',
        );
      }
    }
    await this.mailer.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      await this.forgetKeysNowAndThen();
      const free = this.settings.concurrency - this.sending.size - this.waiting.length;
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
      this.waiting.push(...claimed);
      // A stop that began during the claim hands back what it brought.
      if (!this.running) this.handingBack = this.handingBack.then(() => this.handBackWaiting());
      else this.sendWaiting();
      if (claimed.length < free && this.running) await this.wakeup.wait(this.settings.pollIntervalMs);
    }
  }

  /** Hands the mailer what waits, as long as a connection is free and no stop has begun. */
  private sendWaiting(): void {
    while (this.running && this.sending.size < this.settings.sendsAtOnce && this.waiting.length > 0)
      this.attempt(this.waiting.shift()!);
  }

  /** Ends the leases of the messages that wait for a connection: due again at once, for any instance. */
  private async handBackWaiting(): Promise<void> {
    const handedBack = this.waiting.splice(0);
    if (handedBack.length === 0) return;
    try {
      await this.deliver.release(
        this.settings.id,
        handedBack.map((message) => message.id),
      );
    } catch (error) {
      this.logger.warn(
        { err: error, messages: handedBack.length },
        'mail delivery stopping could not hand back the messages it had not begun; they are sent once their lease runs out',
      );
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
      this.sendWaiting();
      this.wakeup.ring();
    });
    this.sending.add(sending);
    const attempt = sending
      .then((outcome) => this.deliver.record(this.settings.id, message, outcome))
      .then(
        (report) => this.report(report),
        (error: unknown) =>
          this.logger.error(
            { err: error, id: message.id },
            'mail delivery could not record an attempt; the message is tried again once its lease runs out',
          ),
      );
    const tracked = attempt.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /**
   * One line per attempt that did not end in `sent` to every recipient; message ids, never
   * addresses or contents: the server's words for the whole attempt, and how many recipients it
   * refused one by one (the status names them, to those who may read it).
   */
  private report({ id, outcome, settlement, recorded }: AttemptReport): void {
    const said = {
      ...(outcome.kind !== 'accepted' && { reason: outcome.reason }),
      ...(outcome.refusals !== undefined && { recipientsRefused: outcome.refusals.length }),
    };
    if (!recorded)
      this.logger.warn(
        { id, outcome: settlement.status },
        'mail attempt made after its lease ended; not recorded, the message is tried again',
      );
    else if (settlement.status === 'failed')
      this.logger.error({ id, attempts: settlement.attempts, ...said }, 'mail message failed');
    else if (settlement.status === 'queued') {
      this.logger.warn(
        { id, attempts: settlement.attempts, ...said, nextAttemptAt: new Date(settlement.nextAttemptAt).toISOString() },
        'mail attempt failed; will retry',
      );
    } else if (outcome.refusals !== undefined)
      this.logger.warn({ id, attempts: settlement.attempts, ...said }, 'mail message sent, but not to every recipient');
  }

  private async forgetKeysNowAndThen(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastKeysForgotten < FORGET_KEYS_EVERY_MS) return;
    this.lastKeysForgotten = now;
    try {
      await this.deliver.forgetExpiredKeys();
    } catch (error) {
      this.outboxFailed(error);
    }
  }

  private outboxFailed(error: unknown): void {
    if (!this.outboxDown)
      this.logger.error({ err: error }, 'mail delivery cannot reach the outbox; retrying every poll interval');
    this.outboxDown = true;
  }

  private outboxUp(): void {
    if (this.outboxDown) this.logger.info('mail delivery reaches the outbox again');
    this.outboxDown = false;
  }
}
