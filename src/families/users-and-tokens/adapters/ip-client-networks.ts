import { parseNetworks } from '../../../platform/networks/networks.js';
import type { ClientNetworks } from '../domain/tokens/ports.js';

/** Networks compared by their addresses: `10.1.0.0/16` lies within `10.0.0.0/8`, never the other way. */
export class IpClientNetworks implements ClientNetworks {
  within(inner: readonly string[], outer: readonly string[]): boolean {
    const outerNetworks = parseNetworks(outer);
    return parseNetworks(inner).every(([address, bits]) =>
      outerNetworks.some(
        ([outerAddress, outerBits]) =>
          address.kind() === outerAddress.kind() && bits >= outerBits && address.match(outerAddress, outerBits),
      ),
    );
  }
}
