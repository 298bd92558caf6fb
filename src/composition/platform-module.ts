import { ContainerModule } from 'inversify';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { Clock, Randomness } from '../domain/ports.js';

/** What every family may ask for: the time, and chance (the system's, unless a test seeds its own). */
export const platformModule = (randomness: Randomness): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(Clock).toConstantValue(new SystemClock());
    bind(Randomness).toConstantValue(randomness);
  });
