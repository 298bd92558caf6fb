import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import { inAnyNetwork, parseNetworks, type Address, type Network } from '../networks/networks.js';

/** An address as the throttles count it: an IPv4 address written as IPv6 (`::ffff:192.0.2.7`) is the IPv4 one. */
const parsed = (text: string): Address | undefined => (ipaddr.isValid(text) ? ipaddr.process(text) : undefined);

/**
 * Who sent a request, for the login throttle and whatever else counts per client. The peer of
 * the connection, unless it is one of the operator's proxies (`http.trustedProxies`): then
 * `X-Forwarded-For`, read from the right, each trusted proxy naming the one before it, and the
 * first address that is not a trusted proxy is the client. What lies left of that address is
 * whatever the client chose to send and is never read; a header from a peer that is not trusted
 * is ignored altogether.
 */
export class ClientAddresses {
  private readonly trusted: readonly Network[];

  /** `trustedProxies` as the settings check them: CIDRs such as `10.0.0.0/8` and `fd00::/8`. */
  constructor(trustedProxies: readonly string[]) {
    this.trusted = parseNetworks(trustedProxies);
  }

  of(request: IncomingMessage): string {
    const peer = request.socket.remoteAddress ?? 'unknown';
    let client = parsed(peer);
    if (client === undefined || !this.isTrusted(client)) return peer;
    const forwarded = request.headers['x-forwarded-for'];
    if (forwarded !== undefined) {
      const hops = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded).split(',');
      for (let index = hops.length - 1; index >= 0; index -= 1) {
        const hop = parsed(hops[index]!.trim());
        // A trusted proxy that wrote something else than an address: the last one known stands.
        if (hop === undefined) break;
        client = hop;
        if (!this.isTrusted(hop)) break;
      }
    }
    return client.toString();
  }

  private isTrusted(address: Address): boolean {
    return inAnyNetwork(address, this.trusted);
  }
}

/** Each app's reading of client addresses; an app told of no proxies reads the peer. */
const readings = new WeakMap<object, ClientAddresses>();

/** Makes `app` read client addresses through `trustedProxies` (`http.trustedProxies`). */
export function trustProxies(app: object, trustedProxies: readonly string[]): void {
  if (trustedProxies.length > 0) readings.set(app, new ClientAddresses(trustedProxies));
}

/** The client address of a request to `app`, as `trustProxies` told it to read them. */
export function clientAddressOfRequest(app: object, request: IncomingMessage): string {
  const reading = readings.get(app);
  return reading === undefined ? (request.socket.remoteAddress ?? 'unknown') : reading.of(request);
}

/** The client of a request Koa handles. */
export const clientAddressOf = (ctx: { readonly app: object; readonly req: IncomingMessage }): string =>
  clientAddressOfRequest(ctx.app, ctx.req);

/**
 * The client as the login throttle counts it: an IPv4 address, or the /64 network of an IPv6 one.
 * A single host is commonly given a whole /64, so counting its addresses one by one would give
 * whoever holds one a fresh count with every address it picks.
 */
export function throttledClientOf(address: string): string {
  const client = parsed(address);
  if (client === undefined || client.kind() === 'ipv4') return client?.toString() ?? address;
  const network = (client as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(':')}::/64`;
}
