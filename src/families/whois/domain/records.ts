/** The DNS records of one name, by type: each a list, empty where the name has none. */
export interface DnsRecords {
  readonly A: readonly string[];
  readonly AAAA: readonly string[];
  readonly CNAME: readonly string[];
  /** Sorted by priority, the order in which mail is tried. */
  readonly MX: readonly MailExchange[];
  readonly NS: readonly string[];
  /** Each record's character strings joined into one text, as SPF and DKIM read them. */
  readonly TXT: readonly string[];
  readonly SOA: StartOfAuthority | null;
  readonly CAA: readonly CertificationAuthorityAuthorization[];
  readonly SRV: readonly ServiceLocation[];
  /** The host names an address's reverse name (`139.6.0.193.in-addr.arpa`) points to. */
  readonly PTR: readonly string[];
}

export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA', 'SRV', 'PTR'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface MailExchange {
  readonly exchange: string;
  readonly priority: number;
}

export interface StartOfAuthority {
  readonly nsname: string;
  readonly hostmaster: string;
  readonly serial: number;
  readonly refresh: number;
  readonly retry: number;
  readonly expire: number;
  readonly minttl: number;
}

/** One CAA record: its tag (`issue`, `issuewild`, `iodef`, or any other) and value, whatever the tag. */
export interface CertificationAuthorityAuthorization {
  readonly critical: boolean;
  readonly tag: string;
  readonly value: string;
}

export interface ServiceLocation {
  readonly name: string;
  readonly port: number;
  readonly priority: number;
  readonly weight: number;
}

export const NO_RECORDS: DnsRecords = {
  A: [],
  AAAA: [],
  CNAME: [],
  MX: [],
  NS: [],
  TXT: [],
  SOA: null,
  CAA: [],
  SRV: [],
  PTR: [],
};
