import * as E from 'fp-ts/lib/Either.js';
import { domainToUnicode } from 'node:url';
import type { CallContext } from '../../../domain/call-context.js';
import { invalidInput, missingInput, type DomainError, type OutageError } from '../../../domain/errors.js';
import type { Clock } from '../../../domain/ports.js';
import { parseDomainName, type DomainName } from './domain-name.js';
import { parseIpAddress, reverseName } from './ip-address.js';
import { ExpiringCache } from './expiring-cache.js';
import type {
  DnsLookup,
  DnsResult,
  LookupFailure,
  PublicSuffixes,
  RegistrationResult,
  RegistrationSource,
} from './ports.js';
import type { DnsRecords } from './records.js';
import type { Registration } from './registration.js';

/** The fields a name may be asked by, under the domain's names for them. */
export const DOMAIN_FIELDS = { domain: 'domain', legacyDomain: 'legacyDomain' } as const;
export type DomainField = keyof typeof DOMAIN_FIELDS;

/**
 * The name asked about: `domain`, or `legacyDomain`, the same name as the original service took
 * it; one is enough, and both must agree. `fieldNames` says what the caller calls each field (a
 * transport may give one under another name), for the errors that name it.
 */
export interface DomainQuery {
  readonly domain?: string | undefined;
  readonly legacyDomain?: string | undefined;
  readonly fieldNames?: Partial<Readonly<Record<DomainField, string>>>;
}

/** The name of the query, or why there is none: missing, invalid, or given twice as two different names. */
export function domainOf({ domain, legacyDomain, fieldNames = {} }: DomainQuery): E.Either<DomainError, DomainName> {
  const { domain: domainField, legacyDomain: legacyField } = { ...DOMAIN_FIELDS, ...fieldNames };
  if (domain === undefined && legacyDomain === undefined) return E.left(missingInput(domainField));
  const parsed = (text: string, field: string) =>
    E.mapLeft((reason: string) => invalidInput(field, reason))(parseDomainName(text, field));
  if (legacyDomain === undefined) return parsed(domain!, domainField);
  const fromLegacy = parsed(legacyDomain, legacyField);
  if (domain === undefined || E.isLeft(fromLegacy)) return fromLegacy;
  const fromDomain = parsed(domain, domainField);
  if (E.isLeft(fromDomain)) return fromDomain;
  return fromDomain.right.ascii === fromLegacy.right.ascii
    ? fromDomain
    : E.left(
        invalidInput(
          legacyField,
          `${legacyField} (${fromLegacy.right.ascii}) and ${domainField} (${fromDomain.right.ascii}) name different domains: give one`,
        ),
      );
}

/** What the network failed with, as the catalogue's outage error, its cause kept for the log. */
export function outage(failure: LookupFailure): OutageError {
  return failure.reason === 'timeout'
    ? { _tag: 'UpstreamTimeout', details: failure.details, cause: failure.cause }
    : { _tag: 'UpstreamUnavailable', details: failure.details, cause: failure.cause };
}

/** A name's records, or an address's: its PTR records are kept under its reverse name. */
export interface DnsQuery extends DomainQuery {
  readonly address?: string | undefined;
}

export const ADDRESS_FIELD = 'address';

export interface DnsAnswer {
  readonly domain: string;
  readonly unicodeDomain: string;
  /** The address asked about, in its canonical form, when one was. */
  readonly address?: string;
  readonly records: DnsRecords;
}

/** The name a DNS question asks about: the domain's, or the reverse name of the address. */
function dnsNameOf(query: DnsQuery): E.Either<DomainError, { name: DomainName; address?: string }> {
  if (query.address === undefined) return E.map((name: DomainName) => ({ name }))(domainOf(query));
  if (query.domain !== undefined || query.legacyDomain !== undefined)
    return E.left(invalidInput(ADDRESS_FIELD, 'give a domain name or an address, not both'));
  const address = parseIpAddress(query.address, ADDRESS_FIELD);
  if (E.isLeft(address)) return E.left(invalidInput(ADDRESS_FIELD, address.left));
  const reverse = reverseName(address.right);
  return E.right({ name: { ascii: reverse, unicode: reverse }, address: address.right.text });
}

/** DNS answers are kept for the smallest TTL they carry, and never longer than this. */
export const MAX_DNS_CACHE_MS = 5 * 60_000;

export class LookUpDns {
  private readonly cache: ExpiringCache<DnsResult>;

  constructor(
    private readonly dns: DnsLookup,
    clock: Clock,
    maxEntries: number,
  ) {
    this.cache = new ExpiringCache(clock, maxEntries);
  }

  async execute(query: DnsQuery, context: CallContext = {}): Promise<E.Either<DomainError, DnsAnswer>> {
    const asked = dnsNameOf(query);
    if (E.isLeft(asked)) return asked;
    const { name, address } = asked.right;
    return E.map((records: DnsRecords) => ({
      domain: name.ascii,
      unicodeDomain: name.unicode,
      ...(address !== undefined && { address }),
      records,
    }))(await this.recordsOf(name, context));
  }

  /** The records of a name already read. */
  async recordsOf(name: DomainName, context: CallContext = {}): Promise<E.Either<DomainError, DnsRecords>> {
    const result = await this.cache.get(
      name.ascii,
      () => this.dns.records(name.ascii, context),
      (outcome) => (outcome.kind === 'found' ? Math.min(outcome.ttlMs ?? MAX_DNS_CACHE_MS, MAX_DNS_CACHE_MS) : 0),
    );
    switch (result.kind) {
      case 'found':
        return E.right(result.records);
      case 'not-found':
        return E.left({
          _tag: 'InformationNotFound',
          details: `${name.unicode} does not exist: the DNS resolver answered NXDOMAIN (no such name)`,
        });
      case 'unavailable':
        return E.left(outage(result));
    }
  }
}

export interface RegistrationQuery extends DomainQuery {
  /** Whether a WHOIS answer carries the server's text. */
  readonly raw?: boolean | undefined;
}

/** A registration, of the registrable domain the name belongs to (`www.bbc.co.uk` → `bbc.co.uk`). */
export type RegistrationAnswer = { readonly domain: string; readonly unicodeDomain: string } & Registration;

export interface RegistrationSettings {
  /** How long a registration is kept. */
  readonly ttlMs: number;
  readonly maxEntries: number;
}

/** RDAP first, as the source of record; port-43 WHOIS where the TLD has no RDAP service or RDAP fails. */
export class LookUpRegistration {
  private readonly cache: ExpiringCache<RegistrationResult>;

  constructor(
    private readonly rdap: RegistrationSource,
    private readonly whois: RegistrationSource,
    private readonly suffixes: PublicSuffixes,
    clock: Clock,
    private readonly settings: RegistrationSettings,
  ) {
    this.cache = new ExpiringCache(clock, settings.maxEntries);
  }

  async execute(
    { raw = false, ...query }: RegistrationQuery,
    context: CallContext = {},
  ): Promise<E.Either<DomainError, RegistrationAnswer>> {
    const name = domainOf(query);
    if (E.isLeft(name)) return name;
    return this.registrationOf(name.right, raw, context);
  }

  /** The registration of a name already read. */
  async registrationOf(
    name: DomainName,
    raw: boolean,
    context: CallContext = {},
  ): Promise<E.Either<DomainError, RegistrationAnswer>> {
    const registrable = this.suffixes.registrableDomain(name.ascii);
    if (registrable === null)
      return E.left({
        _tag: 'InformationNotFound',
        details: `${name.unicode} is a public suffix: nobody registers it`,
      });
    const result = await this.cache.get(
      registrable,
      () => this.lookUp(registrable, context),
      (outcome) => (outcome.kind === 'found' ? this.settings.ttlMs : 0),
    );
    switch (result.kind) {
      case 'found': {
        const { raw: text, ...registration } = result.registration;
        // Asked for and not there (an RDAP answer has no WHOIS text): refused, never dropped.
        if (raw && text === undefined) {
          return E.left(
            invalidInput(
              'raw',
              `raw=true asks for the WHOIS server's text, and the registration of ${domainToUnicode(registrable)} comes from ${registration.source === 'rdap' ? 'RDAP' : 'a WHOIS server'} without one: leave raw out`,
            ),
          );
        }
        const answer = { domain: registrable, unicodeDomain: domainToUnicode(registrable), ...registration };
        return E.right(raw ? { ...answer, raw: text } : answer);
      }
      case 'not-found':
        return E.left({
          _tag: 'InformationNotFound',
          details: `The registry of ${domainToUnicode(registrable)} does not know it`,
        });
      case 'no-service':
        return E.left({
          _tag: 'InformationNotFound',
          details: `No registry publishes registration data for ${domainToUnicode(registrable)}`,
        });
      case 'unavailable':
        return E.left(outage(result));
    }
  }

  private async lookUp(domain: string, context: CallContext): Promise<RegistrationResult> {
    const fromRdap = await this.rdap.registration(domain, context);
    if (fromRdap.kind === 'found' || fromRdap.kind === 'not-found') return fromRdap;
    const fromWhois = await this.whois.registration(domain, context);
    // WHOIS knowing no server for the TLD says nothing new when RDAP was the one that failed.
    return fromWhois.kind === 'no-service' && fromRdap.kind === 'unavailable' ? fromRdap : fromWhois;
  }
}

/** Both lookups of one name; a part that failed is null, its error under `errors`. */
export interface FullAnswer {
  readonly domain: string;
  readonly unicodeDomain: string;
  readonly dns: DnsRecords | null;
  readonly registration: RegistrationAnswer | null;
  /** The error of each part that failed. */
  readonly errors: { readonly dns?: DomainError; readonly registration?: DomainError };
}

/** Records and registration at once: a part that fails is named beside the other; both failing is the registration's error. */
export class LookUpDomain {
  constructor(
    private readonly dns: LookUpDns,
    private readonly registration: LookUpRegistration,
  ) {}

  async execute(query: DomainQuery, context: CallContext = {}): Promise<E.Either<DomainError, FullAnswer>> {
    const name = domainOf(query);
    if (E.isLeft(name)) return name;
    const [records, registration] = await Promise.all([
      this.dns.recordsOf(name.right, context),
      this.registration.registrationOf(name.right, false, context),
    ]);
    if (E.isLeft(records) && E.isLeft(registration)) return registration;
    return E.right({
      domain: name.right.ascii,
      unicodeDomain: name.right.unicode,
      dns: E.isRight(records) ? records.right : null,
      registration: E.isRight(registration) ? registration.right : null,
      errors: {
        ...(E.isLeft(records) && { dns: records.left }),
        ...(E.isLeft(registration) && { registration: registration.left }),
      },
    });
  }
}
