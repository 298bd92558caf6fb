import type { Clock } from '../../domain/clock.js';

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}
