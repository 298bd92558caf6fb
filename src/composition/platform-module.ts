import { ContainerModule } from 'inversify';
import { SystemClock } from '../platform/clock/system-clock.js';
import { OutboundGuard } from '../platform/upstream/outbound-guard.js';
import type { AppConfig } from '../config/config.js';
import { Clock, Randomness } from '../domain/ports.js';
import { OutboundConnections } from './identifiers.js';
import { typedBindings } from './typed-binding.js';

/**
 * What every family may ask for: the time and chance (the system's, unless a test brings its
 * own), and the guard of connections whose destination an outside party names.
 */
export const platformModule = (
  randomness: Randomness,
  outbound: AppConfig['outbound'],
  clock: Clock = new SystemClock(),
): ContainerModule =>
  new ContainerModule((options) => {
    const { constant } = typedBindings(options);
    constant(Clock, clock);
    constant(Randomness, randomness);
    constant(OutboundConnections, new OutboundGuard(outbound.allowedNetworks));
  });
