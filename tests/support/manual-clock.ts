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
