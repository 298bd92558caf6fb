/**
 * Who holds a block of IP addresses or of AS numbers, as the regional registry's RDAP service
 * publishes it (RFC 9083 §5.4 and §5.5). Every field a registry leaves out is null, never guessed.
 */
interface NumberRegistration {
  /** The registry's own name for the object (`193.0.0.0 - 193.0.7.255`, `AS3333`). */
  readonly handle: string | null;
  readonly name: string | null;
  /** The registry's word for how it is held (`ASSIGNED PA`, `DIRECT ALLOCATION`), as written. */
  readonly type: string | null;
  /** ISO 3166 code, as the registry gives it. */
  readonly country: string | null;
  /** RDAP statuses as written (`active`). */
  readonly status: readonly string[];
  /** The organisation the block is registered to. */
  readonly registrant: NumberHolder | null;
  /** Where abuse from the block is reported. */
  readonly abuse: AbuseContact | null;
  /** ISO 8601 (UTC), or null where the registry gives no date that reads one way. */
  readonly created: string | null;
  readonly updated: string | null;
  /** The URL of the RDAP question answered. */
  readonly rdapUrl: string;
}

/** A block of IP addresses: its first and last address and the networks (CIDR) that make it up. */
export interface NetworkRegistration extends NumberRegistration {
  readonly ipVersion: 'v4' | 'v6';
  readonly startAddress: string | null;
  readonly endAddress: string | null;
  readonly cidrs: readonly string[];
  /** The handle of the block it was carved from. */
  readonly parentHandle: string | null;
}

/** A block of AS numbers (most often one). */
export interface AutonomousSystemRegistration extends NumberRegistration {
  readonly startAutnum: number | null;
  readonly endAutnum: number | null;
}

export interface NumberHolder {
  readonly handle: string | null;
  readonly name: string | null;
  readonly country: string | null;
}

export interface AbuseContact {
  readonly handle: string | null;
  readonly name: string | null;
  readonly email: string | null;
  readonly phone: string | null;
}
