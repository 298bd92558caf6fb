import { identifier } from '../domain/identifier.js';
/**
 * Background work with a beginning and an end: a timer that writes token use counts today; a
 * mail worker, cache invalidation listeners and rate-limit stores next.
 */
export interface LifecycleComponent {
  /** Says what stops working when it is not running, for the log line of a failure. */
  readonly name: string;
  start(): void | Promise<void>;
  /**
   * The process has begun to stop (SIGTERM), while its requests are still being answered: take
   * no new work. `stop` follows.
   */
  drain?(): void;
  /** Rejects when it could not finish its work; the error's message says what was lost. */
  stop(): void | Promise<void>;
}
export const LifecycleComponent = identifier<LifecycleComponent>('LifecycleComponent');

/**
 * What closing an application reports. It lives here, not beside the container, so that the
 * library's declarations reach no HTTP framework's types.
 */
export interface Closed {
  /** Every background component whose stop failed, losing work (each failure is logged with what it lost). */
  readonly stopFailures: readonly string[];
}

export interface Stopped {
  /** Names of the components whose stop failed, in the order they were stopped. */
  readonly failed: readonly string[];
}

/**
 * Starts components in the order given, once the database is ready, and stops them in reverse, so
 * that each stops before what it was started after. One failing stop does not keep the others from
 * stopping: each failure goes to `report` and the next component is stopped all the same.
 */
export class Lifecycle {
  private started: LifecycleComponent[] = [];

  constructor(
    private readonly components: readonly LifecycleComponent[],
    private readonly report: (component: string, error: unknown) => void,
  ) {}

  /** A component that fails to start stops the ones started before it, then the failure is thrown. */
  async start(): Promise<void> {
    for (const component of this.components) {
      try {
        await component.start();
      } catch (error) {
        await this.stop();
        throw error;
      }
      this.started.push(component);
    }
  }

  /** Tells what was started that the process is stopping, so that it takes no new work meanwhile. */
  drain(): void {
    for (const component of this.started) component.drain?.();
  }

  /** Stops what was started, last first; a second call finds nothing left to stop. */
  async stop(): Promise<Stopped> {
    const stopping = this.started.reverse();
    this.started = [];
    const failed: string[] = [];
    for (const component of stopping) {
      try {
        await component.stop();
      } catch (error) {
        failed.push(component.name);
        this.report(component.name, error);
      }
    }
    return { failed };
  }
}
