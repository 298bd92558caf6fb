import { ContainerModule } from 'inversify';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { Clock } from '../domain/clock.js';
import { Randomness } from '../domain/randomness.js';

/** What every family may ask for: the time, and chance (the system's, unless a test seeds its own). */
export const platformModule = (randomness: Randomness): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(Clock).toConstantValue(new SystemClock());
    bind(Randomness).toConstantValue(randomness);
  });
