import { ContainerModule } from 'inversify';
import { SystemClock } from '../platform/clock/system-clock.js';
import { OutboundGuard } from '../platform/upstream/outbound-guard.js';
import type { AppConfig } from '../config/config.js';
import { Clock, Randomness } from '../domain/ports.js';
import { PermissionCatalogue } from '../domain/permissions.js';
import { OutboundConnections } from '../wiring/identifiers.js';
import { typedBindings } from '../wiring/typed-binding.js';

/**
 * What every family may ask for: the time and chance (the system's, unless a test brings its
 * own), the guard of connections whose destination an outside party names, and the catalogue of
 * the permissions every family names.
 */
export const platformModule = (
  randomness: Randomness,
  outbound: AppConfig['outbound'],
  permissions: PermissionCatalogue,
  clock: Clock = new SystemClock(),
): ContainerModule =>
  new ContainerModule((options) => {
    const { constant } = typedBindings(options);
    constant(Clock, clock);
    constant(Randomness, randomness);
    constant(OutboundConnections, new OutboundGuard(outbound.allowedNetworks));
    constant(PermissionCatalogue, permissions);
  });
