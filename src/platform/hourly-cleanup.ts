import type { Logger } from 'pino';
import type { LifecycleComponent } from './lifecycle.js';

const HOUR_MS = 3_600_000;

/**
 * Old rows tidied in the background (usage hours summed into days, audit entries past their
 * retention), at the start and every hour after, in steps until none is left, each step small
 * enough to keep within the database's call deadline. What a stop leaves is taken up at the next start.
 */
export class HourlyCleanup implements LifecycleComponent {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(
    readonly name: string,
    /** One step; answers whether there may be more to do now. */
    private readonly step: () => Promise<boolean>,
    /** What the log says when a round fails, before "will retry in an hour". */
    private readonly failure: string,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.running = this.cleanNow();
    this.timer = setInterval(() => {
      this.running = this.cleanNow();
    }, HOUR_MS);
    this.timer.unref();
  }

  drain(): void {
    this.stopping = true;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async cleanNow(): Promise<void> {
    try {
      while (!this.stopping && (await this.step()));
    } catch (error) {
      this.logger.error({ err: error }, `${this.failure}; will retry in an hour`);
    }
  }
}
