import type { Logger } from 'pino';
import type { LifecycleComponent } from './lifecycle.js';

/** Counts kept in memory that can be written out (token uses, usage history). */
export interface Flushable {
  flush(): Promise<void>;
}

/**
 * Counts kept in memory are written in batches every `intervalMs`, and once more at the stop so
 * that a clean stop loses none. `counts` names them in the log (`token usage counts`).
 */
export class PeriodicFlush implements LifecycleComponent {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly name: string,
    private readonly counts: string,
    private readonly meter: Flushable,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flushNow(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.meter.flush();
    } catch (error) {
      // The last chance to write them.
      throw new Error(`could not write ${this.counts} at close; they are lost`, { cause: error });
    }
  }

  private async flushNow(): Promise<void> {
    try {
      await this.meter.flush();
    } catch (error) {
      this.logger.error({ err: error }, `could not write ${this.counts}; will retry`);
    }
  }
}
