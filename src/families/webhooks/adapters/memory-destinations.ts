import type { OutboundGuard } from '../../../platform/upstream/outbound-guard.js';
import type { WebhookDestinations } from '../domain/ports.js';
import { GuardedDestinations } from './guarded-destinations.js';

/**
 * Where URLs lead by a table of names and their addresses kept in memory instead of DNS, checked
 * by the same outbound guard: for tests, and a library user whose endpoints' names it knows.
 */
export class MemoryDestinations implements WebhookDestinations {
  private readonly checked: GuardedDestinations;

  constructor(guard: OutboundGuard, hosts: Readonly<Record<string, readonly string[]>>) {
    this.checked = new GuardedDestinations(guard, (hostname, _options, callback) => {
      const addresses = hosts[hostname.toLowerCase()];
      if (addresses === undefined || addresses.length === 0)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    });
  }

  refusalOf(url: URL): Promise<string | undefined> {
    return this.checked.refusalOf(url);
  }
}
