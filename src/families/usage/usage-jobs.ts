import type { Logger } from 'pino';
import type { Clock } from '../../domain/ports.js';
import type { LifecycleComponent } from '../../platform/lifecycle.js';
import type { UsageHistory } from './domain/ports.js';
import { bucketStart, DAY_MS, HOUR_MS } from './domain/usage.js';

/** Hourly rows one compaction step moves: a step keeps well within the database's call deadline. */
export const COMPACTION_STEP_ROWS = 10_000;

/**
 * Sums the hours older than the retention into days, at the start and every hour after, in steps
 * until none is left: the hours of a day go together once the whole day is past the retention.
 */
export class UsageCompaction implements LifecycleComponent {
  readonly name = 'usage history compaction';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly history: UsageHistory,
    private readonly clock: Clock,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.running = this.compactNow();
    this.timer = setInterval(() => {
      this.running = this.compactNow();
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

  private async compactNow(): Promise<void> {
    const before = bucketStart(this.clock.now() - this.retentionDays * DAY_MS, DAY_MS);
    try {
      // What is left after a stop is taken up at the next start.
      while (!this.stopping && (await this.history.compact(before, COMPACTION_STEP_ROWS)) === COMPACTION_STEP_ROWS);
    } catch (error) {
      this.logger.error({ err: error }, 'could not sum old usage hours into days; will retry in an hour');
    }
  }
}
