import { ContainerModule } from 'inversify';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { Clock } from '../domain/clock.js';

/** What every family may ask for: the time. */
export const platformModule = (): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(Clock).toConstantValue(new SystemClock());
  });
