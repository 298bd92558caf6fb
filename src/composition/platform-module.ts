import { ContainerModule } from 'inversify';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { Clock, Randomness } from '../domain/ports.js';

/** What every family may ask for: the time and chance (the system's, unless a test brings its own). */
export const platformModule = (randomness: Randomness, clock: Clock = new SystemClock()): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(Clock).toConstantValue(clock);
    bind(Randomness).toConstantValue(randomness);
  });
