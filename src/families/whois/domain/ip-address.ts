import * as E from 'fp-ts/lib/Either.js';

/** An IP address as a number of its version's width, with its canonical text (dotted decimal, or RFC 5952 for IPv6). */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly value: bigint;
  readonly text: string;
}

/** A block of addresses: its first address and how many leading bits all of them share. */
export interface IpNetwork {
  readonly first: IpAddress;
  readonly prefixLength: number;
}

export const IP_ADDRESS_RULE =
  'one IPv4 address in four decimal parts without leading zeros (193.0.6.139) or one IPv6 address (2001:67c:2e8::2)';

const BITS = { 4: 32, 6: 128 } as const;
const MAX_INPUT_CHARS = 100;

/**
 * Reads one IP address, strictly: IPv4 only as four decimal parts (the `0x7f.1` and `010.1.1.1`
 * forms that C's inet_aton reads differently from what they look like are refused), IPv6 as RFC
 * 4291 writes it, in any case, an IPv4 tail allowed. No brackets, zone, prefix length or spaces.
 */
export function parseIpAddress(input: string, field: string): E.Either<string, IpAddress> {
  const refuse = (why: string): E.Either<string, never> => E.left(`${field} must be ${IP_ADDRESS_RULE}: ${why}`);
  if (input.length > MAX_INPUT_CHARS) return refuse(`${input.length} characters is too long`);
  if (input === '') return refuse('it is empty');
  if (input.includes('/')) return refuse('a network (with a /prefix length) is not one address');
  if (input.startsWith('[')) return refuse('write an IPv6 address without brackets');
  if (input.includes('%')) return refuse('a zone (%eth0) names an interface, not an address');
  if (input.includes(':')) {
    const value = ipv6Value(input);
    return value === undefined ? refuse('it is not a valid IPv6 address') : E.right(ipAddressOf(6, value));
  }
  const parts = input.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part)))
    return refuse('it is neither four decimal parts separated by dots nor an IPv6 address');
  if (parts.some((part) => part.length > 1 && part.startsWith('0')))
    return refuse('a part with a leading zero is read as octal by some programs: write it without');
  if (parts.some((part) => Number(part) > 255)) return refuse('each part is at most 255');
  return E.right(ipAddressOf(4, ipv4Value(parts)!));
}

/** The address of a version with this value, in its canonical text. */
export function ipAddressOf(version: 4 | 6, value: bigint): IpAddress {
  return { version, value, text: version === 4 ? ipv4Text(value) : ipv6Text(value) };
}

/** Whether the network holds the address (never across versions). */
export function networkHolds(network: IpNetwork, address: IpAddress): boolean {
  if (network.first.version !== address.version) return false;
  const shift = BigInt(BITS[address.version] - network.prefixLength);
  return address.value >> shift === network.first.value >> shift;
}

/** A network written as `first/length`, or undefined when it is not one (`10.0.0.0/8`, `2001:db8::/32`). */
export function parseNetwork(cidr: string): IpNetwork | undefined {
  const [address, length, ...rest] = cidr.split('/');
  if (address === undefined || length === undefined || rest.length > 0 || !/^\d{1,3}$/.test(length)) return undefined;
  const first = parseIpAddress(address, 'network');
  const prefixLength = Number(length);
  if (E.isLeft(first) || prefixLength > BITS[first.right.version]) return undefined;
  return { first: first.right, prefixLength };
}

export const networkText = ({ first, prefixLength }: IpNetwork): string => `${first.text}/${prefixLength}`;

/**
 * The fewest networks that together hold exactly the addresses from `first` to `last`
 * (`193.0.0.0`–`193.0.7.255` is `193.0.0.0/21`); none when the range runs backwards or across versions.
 */
export function networksOfRange(first: IpAddress, last: IpAddress): IpNetwork[] {
  if (first.version !== last.version || first.value > last.value) return [];
  const width = BITS[first.version];
  const networks: IpNetwork[] = [];
  let start = first.value;
  while (start <= last.value) {
    // The largest block that starts here (aligned) and ends by `last`.
    let size = 0;
    while (
      size < width &&
      (start & ((1n << BigInt(size + 1)) - 1n)) === 0n &&
      start + (1n << BigInt(size + 1)) - 1n <= last.value
    )
      size += 1;
    networks.push({ first: ipAddressOf(first.version, start), prefixLength: width - size });
    start += 1n << BigInt(size);
  }
  return networks;
}

/** The name DNS keeps an address's PTR records under: `139.6.0.193.in-addr.arpa`, or nibbles under `ip6.arpa`. */
export function reverseName({ version, value }: IpAddress): string {
  if (version === 4)
    return `${[24n, 16n, 8n, 0n]
      .map((shift) => String((value >> shift) & 0xffn))
      .reverse()
      .join('.')}.in-addr.arpa`;
  return `${[...value.toString(16).padStart(32, '0')].reverse().join('.')}.ip6.arpa`;
}

interface SpecialBlock {
  readonly network: IpNetwork;
  readonly what: string;
}

const special = (cidr: string, what: string): SpecialBlock => ({ network: parseNetwork(cidr)!, what });

/**
 * Blocks of IANA's special-purpose registries (RFC 6890) that are not globally reachable, and
 * multicast: nobody holds them as a registration, so no RDAP service is asked about them.
 */
const SPECIAL_BLOCKS: readonly SpecialBlock[] = [
  special('0.0.0.0/8', '"this network" (RFC 791)'),
  special('10.0.0.0/8', 'private-use address space (RFC 1918)'),
  special('100.64.0.0/10', 'shared address space for carrier-grade NAT (RFC 6598)'),
  special('127.0.0.0/8', 'loopback (RFC 1122)'),
  special('169.254.0.0/16', 'link-local (RFC 3927)'),
  special('172.16.0.0/12', 'private-use address space (RFC 1918)'),
  special('192.0.0.0/24', 'IETF protocol assignments (RFC 6890)'),
  special('192.0.2.0/24', 'documentation, TEST-NET-1 (RFC 5737)'),
  special('192.88.99.0/24', 'the deprecated 6to4 relay anycast (RFC 7526)'),
  special('192.168.0.0/16', 'private-use address space (RFC 1918)'),
  special('198.18.0.0/15', 'benchmarking (RFC 2544)'),
  special('198.51.100.0/24', 'documentation, TEST-NET-2 (RFC 5737)'),
  special('203.0.113.0/24', 'documentation, TEST-NET-3 (RFC 5737)'),
  special('224.0.0.0/4', 'multicast (RFC 5771)'),
  special('240.0.0.0/4', 'reserved for future use (RFC 1112), the limited broadcast address among them'),
  special('::/128', 'the unspecified address (RFC 4291)'),
  special('::1/128', 'loopback (RFC 4291)'),
  special('::ffff:0:0/96', 'IPv4-mapped (RFC 4291): ask for the IPv4 address it carries'),
  special('64:ff9b::/96', 'IPv4/IPv6 translation (RFC 6052): ask for the IPv4 address it carries'),
  special('64:ff9b:1::/48', 'local-use IPv4/IPv6 translation (RFC 8215)'),
  special('100::/64', 'discard-only (RFC 6666)'),
  special('2001:2::/48', 'benchmarking (RFC 5180)'),
  special('2001:db8::/32', 'documentation (RFC 3849)'),
  special('3fff::/20', 'documentation (RFC 9637)'),
  special('fc00::/7', 'unique-local (RFC 4193)'),
  special('fe80::/10', 'link-local (RFC 4291)'),
  special('ff00::/8', 'multicast (RFC 4291)'),
];

/** Why nobody registers this address (the block and what it is for), or undefined for an address a registry may hold. */
export function specialPurposeOf(address: IpAddress): { readonly network: string; readonly what: string } | undefined {
  const block = SPECIAL_BLOCKS.find(({ network }) => networkHolds(network, address));
  return block && { network: networkText(block.network), what: block.what };
}

export const AS_NUMBER_RULE =
  'an autonomous system number from 0 to 4294967295 in decimal, without leading zeros, optionally after AS (3333 or AS3333)';
const MAX_AS_NUMBER = 4_294_967_295;

/** Reads an AS number as operators write it, `3333` or `AS3333` (any case); asdot (`1.10`) and anything else is refused. */
export function parseAsNumber(input: string, field: string): E.Either<string, number> {
  const refuse = (why: string): E.Either<string, never> => E.left(`${field} must be ${AS_NUMBER_RULE}: ${why}`);
  if (input.length > MAX_INPUT_CHARS) return refuse(`${input.length} characters is too long`);
  const digits = /^as/i.test(input) ? input.slice(2) : input;
  if (digits === '') return refuse('it has no number');
  if (/^\d+\.\d+$/.test(digits)) return refuse('asdot notation (1.10) is not taken: write the number (65546)');
  if (!/^\d+$/.test(digits)) return refuse('it is not a decimal number');
  if (digits.length > 1 && digits.startsWith('0')) return refuse('it has a leading zero');
  const number = Number(digits);
  if (digits.length > 10 || number > MAX_AS_NUMBER) return refuse(`${digits} is more than ${MAX_AS_NUMBER}`);
  return E.right(number);
}

/** AS numbers of the IANA registry that no one holds as a registration (RFC 7249), with what they are for. */
const SPECIAL_AS_NUMBERS: readonly { readonly from: number; readonly to: number; readonly what: string }[] = [
  { from: 0, to: 0, what: 'reserved (RFC 7607)' },
  { from: 23_456, to: 23_456, what: 'AS_TRANS, the stand-in for 4-byte numbers (RFC 6793)' },
  { from: 64_496, to: 64_511, what: 'for documentation (RFC 5398)' },
  { from: 64_512, to: 65_534, what: 'for private use (RFC 6996)' },
  { from: 65_535, to: 65_535, what: 'reserved (RFC 7300)' },
  { from: 65_536, to: 65_551, what: 'for documentation (RFC 5398)' },
  { from: 4_200_000_000, to: 4_294_967_294, what: 'for private use (RFC 6996)' },
  { from: 4_294_967_295, to: 4_294_967_295, what: 'reserved (RFC 7300)' },
];

/** Why nobody registers this AS number, or undefined for one a registry may hold. */
export function specialAsNumberOf(asn: number): { readonly range: string; readonly what: string } | undefined {
  const block = SPECIAL_AS_NUMBERS.find(({ from, to }) => asn >= from && asn <= to);
  return (
    block && { range: block.from === block.to ? `AS${block.from}` : `AS${block.from}-AS${block.to}`, what: block.what }
  );
}

function ipv4Value(parts: readonly string[]): bigint | undefined {
  return parts.reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** The value of an IPv6 address as RFC 4291 §2.2 writes it, or undefined. */
function ipv6Value(text: string): bigint | undefined {
  if (!/^[0-9a-f:.]+$/i.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string, last: boolean): bigint[] | undefined => {
    if (half === '') return [];
    const pieces = half.split(':');
    const groups: bigint[] = [];
    for (const [index, piece] of pieces.entries()) {
      if (last && index === pieces.length - 1 && piece.includes('.')) {
        const parts = piece.split('.');
        if (
          parts.length !== 4 ||
          parts.some(
            (part) => !/^\d{1,3}$/.test(part) || Number(part) > 255 || (part.length > 1 && part.startsWith('0')),
          )
        )
          return undefined;
        const value = ipv4Value(parts)!;
        groups.push(value >> 16n, value & 0xffffn);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) groups.push(BigInt(`0x${piece}`));
      else return undefined;
    }
    return groups;
  };
  const head = groupsOf(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : [];
  if (head === undefined || tail === undefined) return undefined;
  const written = head.length + tail.length;
  if (halves.length === 1 ? written !== 8 : written > 7) return undefined;
  const groups = [...head, ...Array<bigint>(8 - written).fill(0n), ...tail];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}

/**
 * RFC 5952: lower case, no leading zeros, the longest run of two or more zero groups (the first of
 * equals) as `::`, and an IPv4-mapped address with its IPv4 address dotted (§5).
 */
function ipv6Text(value: bigint): string {
  if (value >> 32n === 0xffffn) return `::ffff:${ipv4Text(value & 0xffffffffn)}`;
  const groups = Array.from({ length: 8 }, (_, index) => (value >> BigInt(16 * (7 - index))) & 0xffffn);
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8;) {
    let end = start;
    while (end < 8 && groups[end] === 0n) end += 1;
    if (end - start > best.length) best = { start, length: end - start };
    start = end === start ? start + 1 : end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}
