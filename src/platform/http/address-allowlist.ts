import ipaddr from 'ipaddr.js';
import type { DomainError } from '../../domain/errors.js';
import { linksOf, type Principal } from '../../domain/identity/principal.js';
import { inAnyNetwork, parseNetworks, type Network } from '../networks/networks.js';

/** Each verified token's networks, read once: a cached principal keeps its record, and so its list. */
const parsedLists = new WeakMap<readonly string[], Network[]>();

const networksOf = (list: readonly string[]): Network[] => {
  let networks = parsedLists.get(list);
  if (networks === undefined) {
    networks = parseNetworks(list);
    parsedLists.set(list, networks);
  }
  return networks;
};

/**
 * Whether the principal may act from the client address: a token bound to client networks
 * (`allowedAddresses`) serves only requests from one of them, and so does everything minted
 * through it. An address that cannot be read is in no network.
 */
export function addressRefusal(principal: Principal, clientAddress: string): DomainError | undefined {
  let address: ipaddr.IPv4 | ipaddr.IPv6 | undefined;
  for (const link of linksOf(principal)) {
    const allowed = link.token.allowedAddresses;
    if (allowed === null) continue;
    // An IPv4 client on a dual-stack socket (`::ffff:203.0.113.7`) is the IPv4 address it stands for.
    address ??= ipaddr.isValid(clientAddress) ? ipaddr.process(clientAddress) : undefined;
    if (address === undefined || !inAnyNetwork(address, networksOf(allowed)))
      return { _tag: 'AddressNotAllowed', address: address?.toString() ?? clientAddress };
  }
  return undefined;
}
