import { identifier } from '../../../domain/identifier.js';
import type { CallContext } from '../../../domain/call-context.js';
import type { IpAddress } from './ip-address.js';
import type { AutonomousSystemRegistration, NetworkRegistration } from './number-registration.js';
import type { DnsRecords } from './records.js';
import type { Registration } from './registration.js';

/**
 * Nothing usable in time: a timeout, or a failure (unreachable, a refusal, a server failure, an
 * answer that cannot be read). `cause` is what went wrong, for the log; no client sees it.
 */
export interface LookupFailure {
  readonly kind: 'unavailable';
  readonly reason: 'timeout' | 'failure';
  readonly details: string;
  readonly cause?: unknown;
}

/**
 * A name's records, with how long they may be kept (the smallest TTL the servers gave, in ms;
 * undefined when they gave none); the name does not exist (a resolver that answers for the rest
 * of DNS answered NXDOMAIN); or nothing usable, no resolver reached or none that gives DNS among them.
 */
export type DnsResult =
  | { readonly kind: 'found'; readonly records: DnsRecords; readonly ttlMs: number | undefined }
  | { readonly kind: 'not-found' }
  | LookupFailure;

/** DNS as the domain needs it: every record type of one name (ASCII form). Rejects only on bugs. */
export interface DnsLookup {
  records(name: string, context?: CallContext): Promise<DnsResult>;
}
export const DnsLookup = identifier<DnsLookup>('DnsLookup');

/**
 * A registrable domain's registration; "the registry does not know it"; "this source does not
 * serve its TLD" (no RDAP service for it); or nothing usable.
 */
export type RegistrationResult =
  | { readonly kind: 'found'; readonly registration: Registration }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'no-service' }
  | LookupFailure;

/** One source of registration data (RDAP or port-43 WHOIS), asked for a registrable domain in ASCII. Rejects only on bugs. */
export interface RegistrationSource {
  registration(domain: string, context?: CallContext): Promise<RegistrationResult>;
}
/** The source of record, asked first. */
export const RdapSource = identifier<RegistrationSource>('RdapSource');
/** The fallback for TLDs without RDAP, and for when RDAP fails. */
export const WhoisSource = identifier<RegistrationSource>('WhoisSource');

/**
 * The registration of a block of numbers; "the registry does not know it"; "no registry serves
 * the block" (IANA's bootstrap names no RDAP service for it); or nothing usable.
 */
export type NumberRegistrationResult<R> =
  | { readonly kind: 'found'; readonly registration: R }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'no-service' }
  | LookupFailure;

/** Who holds IP addresses and AS numbers, over RDAP. Rejects only on bugs. */
export interface NumberRegistrationSource {
  /** The most specific network the registry holds the address in. */
  network(address: IpAddress, context?: CallContext): Promise<NumberRegistrationResult<NetworkRegistration>>;
  autonomousSystem(asn: number, context?: CallContext): Promise<NumberRegistrationResult<AutonomousSystemRegistration>>;
}
export const NumberSource = identifier<NumberRegistrationSource>('NumberSource');

/** The Public Suffix List as the domain needs it. */
export interface PublicSuffixes {
  /** The part of an ASCII name that is registered (`www.bbc.co.uk` → `bbc.co.uk`); null for a public suffix itself (`co.uk`). */
  registrableDomain(name: string): string | null;
}
export const PublicSuffixes = identifier<PublicSuffixes>('PublicSuffixes');
