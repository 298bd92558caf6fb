import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { inAnyNetwork, parseNetworks, type Address, type Network } from '../networks/networks.js';

/** Why a connection was not made: what the destination was and what kind of address it is. Never the destination's answer. */
export class RefusedDestination extends Error {
  constructor(
    readonly destination: string,
    readonly why: string,
  ) {
    super(`refused to connect to ${destination}: ${why}, which outbound.allowedNetworks does not list`);
    this.name = 'RefusedDestination';
  }
}

/**
 * Instances' metadata services, which hand out credentials to whoever asks from the instance.
 * Most are link-local or unique-local and refused as such anyway; they are named so that the log
 * says what was aimed at, and so that listing a broad network does not open them (see allows).
 */
const CLOUD_METADATA: readonly Network[] = parseNetworks([
  '169.254.169.254/32', // AWS, Google Cloud, Azure, Oracle, OpenStack, DigitalOcean and most others
  '169.254.170.2/32', // AWS ECS task metadata and credentials
  '169.254.0.23/32', // Tencent Cloud
  '100.100.100.200/32', // Alibaba Cloud
  '168.63.129.16/32', // Azure's WireServer: a public address, reachable only from Azure's VMs
  'fd00:ec2::254/128', // AWS over IPv6
]);

/** The only IPv6 block IANA allocates global unicast addresses from (RFC 4291, IANA's IPv6 address space). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address the translator connects to. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** ipaddr.js's range names, as a log line says them. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (shared, not public)',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  teredo: 'a Teredo tunnel',
};

/** How an IPv6 address carries an IPv4 one to a translator or relay, as a log line says it. */
const CARRIER_WORDS: Readonly<Record<string, string>> = {
  rfc6052: 'NAT64',
  rfc6145: 'IPv4-translated',
  '6to4': '6to4',
};

/**
 * The one check of every connection whose destination an outside party can name (a WHOIS
 * referral, a server an RDAP bootstrap or redirect names, a webhook): only public unicast
 * addresses, unless the operator lists the network in `outbound.allowedNetworks`. It checks the
 * addresses a name resolves to as the socket is given them (`lookup`: no second resolution for
 * a rebinding name to change), an address given as it is (`refusalOfHost`, which no lookup
 * sees), and the peer a socket did connect to (`refusalOfPeer`). Servers the operator configures
 * are trusted as configured and do not come here.
 */
export class OutboundGuard {
  private readonly allowed: readonly Network[];

  /** `allowedNetworks`: CIDRs (`127.0.0.0/8`, `fd00::/8`), as the configuration checked them. */
  constructor(allowedNetworks: readonly string[]) {
    this.allowed = parseNetworks(allowedNetworks);
  }

  /** Why a connection to this IP address (which `name` resolved to, if one did) is refused, or undefined when it may be made. */
  refusalOf(address: string, name?: string): RefusedDestination | undefined {
    const destination = name === undefined ? address : `${name} (${address})`;
    const parsed = parseAddress(address);
    if (parsed === undefined) return new RefusedDestination(destination, 'not an IP address');
    const { verdict, destinations } = classify(parsed);
    if (verdict === undefined || destinations.some((candidate) => this.allows(candidate))) return undefined;
    return new RefusedDestination(destination, verdict);
  }

  /** For a host given as an IP address, why it is refused; a name is checked as it resolves (`lookup`). */
  refusalOfHost(host: string): RefusedDestination | undefined {
    return isIP(host) === 0 ? undefined : this.refusalOf(host);
  }

  /** Why the peer a socket is connected to is refused: the address actually connected, whatever resolved it. */
  refusalOfPeer(socket: Socket): RefusedDestination | undefined {
    const peer = socket.remoteAddress;
    return peer === undefined ? new RefusedDestination('a closed socket', 'no peer address') : this.refusalOf(peer);
  }

  /**
   * A `lookup` for sockets giving only the addresses that may be connected to (a name with a
   * public and a loopback address connects to the public one); none left fails the connection
   * with the reason of the first refused.
   */
  lookup(resolve: LookupFunction = systemLookup as LookupFunction): LookupFunction {
    return (hostname, options, callback) => {
      resolve(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '');
        const all = typeof addresses === 'string' ? [{ address: addresses, family: isIP(addresses) }] : addresses;
        const allowed: LookupAddress[] = [];
        let refused: RefusedDestination | undefined;
        for (const candidate of all) {
          const refusal = this.refusalOf(candidate.address, hostname);
          if (refusal === undefined) allowed.push(candidate);
          else refused ??= refusal;
        }
        const first = allowed[0];
        if (first === undefined) return callback(refused ?? new RefusedDestination(hostname, 'no address'), '');
        if (options.all) callback(null, allowed);
        else callback(null, first.address, first.family);
      });
    };
  }

  /**
   * Whether a listed network holds the address. An instance's metadata service is opened only by
   * naming it alone (`169.254.169.254/32`), not by a broad network that happens to hold it.
   */
  private allows(address: Address): boolean {
    const networks = inAnyNetwork(address, CLOUD_METADATA)
      ? this.allowed.filter(([, bits]) => bits === (address.kind() === 'ipv4' ? 32 : 128))
      : this.allowed;
    return inAnyNetwork(address, networks);
  }
}

/**
 * An address as the socket takes it (`isIP`'s forms). IPv6 goes through the URL serializer first:
 * ipaddr.js reads the IPv4-compatible `::127.0.0.1` as if it were the mapped `::ffff:127.0.0.1`.
 * A zone (`fe80::1%eth0`) says which interface, not which address, and is left out.
 */
function parseAddress(text: string): Address | undefined {
  switch (isIP(text)) {
    case 4:
      return ipaddr.IPv4.parse(text);
    case 6: {
      const url = `http://[${text.split('%')[0]}]/`;
      return URL.canParse(url) ? ipaddr.IPv6.parse(new URL(url).hostname.slice(1, -1)) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Why an address is not public (undefined when it is), and the destinations a listed network
 * may cover: the address, and the IPv4 address an IPv6 one carries to a translator or relay.
 */
function classify(address: Address): { verdict: string | undefined; destinations: Address[] } {
  if (address.kind() === 'ipv4') return { verdict: verdictOfV4(address as ipaddr.IPv4), destinations: [address] };
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedV4(v6);
  if (embedded !== undefined) {
    const inner = verdictOfV4(embedded);
    // A mapped address is the IPv4 host itself, over a dual-stack socket.
    const via =
      v6.range() === 'ipv4Mapped' ? '' : ` (${CARRIER_WORDS[v6.range()] ?? v6.range()} of ${embedded.toString()})`;
    return { verdict: inner === undefined ? undefined : `${inner}${via}`, destinations: [v6, embedded] };
  }
  return { verdict: verdictOfV6(v6), destinations: [v6] };
}

function verdictOfV4(address: ipaddr.IPv4): string | undefined {
  if (inAnyNetwork(address, CLOUD_METADATA)) return 'a cloud metadata service';
  const range = address.range();
  return range === 'unicast' ? undefined : (RANGE_WORDS[range] ?? `special-purpose (${range})`);
}

function verdictOfV6(address: ipaddr.IPv6): string | undefined {
  if (inAnyNetwork(address, CLOUD_METADATA)) return 'a cloud metadata service';
  const range = address.range();
  if (range !== 'unicast') return RANGE_WORDS[range] ?? `special-purpose (${range})`;
  // ipaddr.js calls everything it has no name for unicast, IPv4-compatible ::a.b.c.d included.
  if (!address.match(GLOBAL_UNICAST_V6))
    return address.parts.slice(0, 6).every((part) => part === 0)
      ? 'IPv4-compatible (deprecated)'
      : 'outside global unicast (2000::/3)';
  return undefined;
}

/** The IPv4 address an IPv6 one stands for: mapped, translated (SIIT), NAT64's well-known prefix, 6to4. */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const { parts } = address;
  const fromParts = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return fromParts(parts[6]!, parts[7]!);
    case 'rfc6052':
      // The local-use prefix 64:ff9b:1::/48 (RFC 8215) places it by the network's own prefix length: refused as not public.
      return address.match(NAT64_WELL_KNOWN) ? fromParts(parts[6]!, parts[7]!) : undefined;
    case '6to4':
      return fromParts(parts[1]!, parts[2]!);
    default:
      return undefined;
  }
}
