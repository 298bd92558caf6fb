import type { Logger } from 'pino';
import type { Clock } from '../../domain/ports.js';
import type { LifecycleComponent } from '../../platform/lifecycle.js';
import { Wakeup } from '../../platform/wakeup.js';
import type { DeliverWebhooks } from './domain/deliver-webhooks.js';
import type { ExpiryNotices } from './domain/expiry-notices.js';
import type { WebhookDeliveries } from './domain/ports.js';

export interface WebhookWorkerSettings {
  /** The worker's name in the deliveries' leases: one per process. */
  readonly id: string;
  /** Deliveries attempted at once. */
  readonly concurrency: number;
  /** How long a claimed delivery is this worker's alone: longer than an attempt can take. */
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  /** How often it looks for tokens about to expire. */
  readonly expiryScanMs: number;
  /** How often it forgets old events. */
  readonly forgetEveryMs: number;
  /** How long a stop waits for the attempts in flight before handing their deliveries back. */
  readonly stopGraceMs: number;
}

/** Events handed on per look at the log. */
const EVENTS_PER_ROUND = 200;

/**
 * The background worker that announces tokens about to expire, hands events on to endpoints and attempts due deliveries, up to
 * `concurrency` at once, claiming more as they finish. Idle, it looks again every poll interval.
 * Stopping takes no new work, waits for the attempts in flight up to the grace, then hands back
 * what it still holds, to be claimed at once by another instance (or this one after a restart).
 */
export class WebhookWorker implements LifecycleComponent {
  readonly name = 'webhook delivery';
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly wakeup = new Wakeup();
  private nextExpiryScan = 0;
  private nextForget = 0;

  constructor(
    private readonly deliver: DeliverWebhooks,
    private readonly expiry: ExpiryNotices,
    private readonly deliveries: WebhookDeliveries,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: WebhookWorkerSettings,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  drain(): void {
    this.running = false;
    this.wakeup.ring();
  }

  async stop(): Promise<void> {
    this.drain();
    await this.loop;
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => (graceTimer = setTimeout(resolve, this.settings.stopGraceMs))),
    ]);
    clearTimeout(graceTimer);
    await this.deliveries.release(this.settings.id).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'webhook deliveries not handed back: claimed again when their lease ends');
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      let busy = false;
      try {
        if (this.clock.now() >= this.nextExpiryScan) {
          this.nextExpiryScan = this.clock.now() + this.settings.expiryScanMs;
          await this.expiry.announce();
        }
        if (this.clock.now() >= this.nextForget) {
          this.nextForget = this.clock.now() + this.settings.forgetEveryMs;
          await this.deliver.forgetOldEvents();
        }
        busy = (await this.deliver.fanOut(EVENTS_PER_ROUND)) > 0;
        const free = this.settings.concurrency - this.inFlight.size;
        if (free > 0 && this.running) {
          const now = this.clock.now();
          const claimed = await this.deliveries.claim({
            worker: this.settings.id,
            now,
            leaseUntil: now + this.settings.leaseMs,
            limit: free,
          });
          for (const delivery of claimed)
            this.track(this.attempt(delivery.id, () => this.deliver.attempt(delivery, this.settings.id)));
          busy ||= claimed.length === free;
        }
      } catch (error) {
        // The storage is down or late: nothing is lost (leases end), so the worker waits and looks again.
        this.logger.warn({ err: error }, 'webhook delivery round failed; trying again');
      }
      if (this.running && !busy) await this.wakeup.wait(this.settings.pollIntervalMs);
    }
  }

  private async attempt(id: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      // Its lease ends and it is attempted again: at least once.
      this.logger.warn({ err: error, delivery: id }, 'webhook delivery attempt not recorded');
    }
  }

  private track(attempt: Promise<void>): void {
    this.inFlight.add(attempt);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      // A slot is free: claim again now rather than at the next poll.
      this.wakeup.ring();
    });
  }
}
