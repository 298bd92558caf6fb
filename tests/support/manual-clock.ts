import type { Clock } from '../../src/domain/ports.js';

/** A clock that moves only when told: for tests of expiry and caching. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * The system's time, moved forward by whatever the test adds: for a server that must go on with
 * the time (its caches, its deadlines) where one test needs time to pass without waiting for it.
 */
export class SteppedClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  advance(ms: number): void {
    this.offset += ms;
  }
}
