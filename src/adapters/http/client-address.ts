import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** An address as the throttles count it: an IPv4 address written as IPv6 (`::ffff:192.0.2.7`) is the IPv4 one. */
function plainAddress(text: string): string | undefined {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  const address = mapped ? mapped[1]! : text;
  return isIP(address) === 0 ? undefined : address;
}

/**
 * Who sent a request, for the login throttle and whatever else counts per client. The peer of
 * the connection, unless it is one of the operator's proxies (`http.trustedProxies`): then
 * `X-Forwarded-For`, read from the right, each trusted proxy naming the one before it, and the
 * first address that is not a trusted proxy is the client. What lies left of that address is
 * whatever the client chose to send and is never read; a header from a peer that is not trusted
 * is ignored altogether.
 */
export class ClientAddresses {
  private readonly trusted: BlockList | undefined;

  /** `trustedProxies` as the settings check them: `10.0.0.0/8`, `fd00::/8`, or one address. */
  constructor(trustedProxies: readonly string[]) {
    if (trustedProxies.length === 0) return;
    this.trusted = new BlockList();
    for (const network of trustedProxies) {
      const [address, prefix] = network.split('/') as [string, string | undefined];
      const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
      this.trusted.addSubnet(address, prefix === undefined ? (type === 'ipv4' ? 32 : 128) : Number(prefix), type);
    }
  }

  of(request: IncomingMessage): string {
    const peer = request.socket.remoteAddress ?? 'unknown';
    if (this.trusted === undefined) return peer;
    let client = plainAddress(peer);
    if (client === undefined || !this.isTrusted(client)) return peer;
    const forwarded = request.headers['x-forwarded-for'];
    if (forwarded === undefined) return client;
    const hops = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded).split(',');
    for (let index = hops.length - 1; index >= 0; index -= 1) {
      const hop = plainAddress(hops[index]!.trim());
      // A trusted proxy that wrote something else than an address: the last one known stands.
      if (hop === undefined) return client;
      client = hop;
      if (!this.isTrusted(hop)) return hop;
    }
    return client;
  }

  private isTrusted(address: string): boolean {
    return this.trusted!.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
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
