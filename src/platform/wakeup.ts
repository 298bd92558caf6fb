/**
 * What a background worker's loop (the mail outbox's, the webhook deliveries') waits on between
 * rounds: a poll interval, or less when something may have changed. A ring while nobody waits is
 * kept for the next wait, so that a slot freed mid-round is not left until the next poll.
 */
export class Wakeup {
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
