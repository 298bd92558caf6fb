import ipaddr from 'ipaddr.js';

/** An IP address as ipaddr.js reads it, and a network as a CIDR reads. */
export type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Network = [Address, number];

/** CIDRs (`10.0.0.0/8`, `fd00::/8`) as the settings checked them. */
export const parseNetworks = (cidrs: readonly string[]): Network[] => cidrs.map((cidr) => ipaddr.parseCIDR(cidr));

/** Whether one of `networks` holds the address; an IPv4 network never holds an IPv6 address, nor the other way. */
export const inAnyNetwork = (address: Address, networks: readonly Network[]): boolean =>
  networks.some((network) => network[0].kind() === address.kind() && address.match(network));
