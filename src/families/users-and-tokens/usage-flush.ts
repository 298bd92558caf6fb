import type { Logger } from 'pino';
import type { TokenUsageMeter } from './domain/tokens/usage-meter.js';
import type { LifecycleComponent } from '../../platform/lifecycle.js';

export const USAGE_FLUSH = 'token usage flush';

/** Token use counts are written in batches, and once more at the stop so a clean stop loses none. */
export class UsageFlush implements LifecycleComponent {
  readonly name = USAGE_FLUSH;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly meter: TokenUsageMeter,
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
      throw new Error('could not write token usage counts at close; they are lost', { cause: error });
    }
  }

  private async flushNow(): Promise<void> {
    try {
      await this.meter.flush();
    } catch (error) {
      this.logger.error({ err: error }, 'could not write token usage counts; will retry');
    }
  }
}
