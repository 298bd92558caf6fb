import type * as t from 'io-ts';
import type { Logger } from 'pino';
import type { CallContext } from '../../../../domain/call-context.js';
import type { Clock } from '../../../../domain/ports.js';
import type { IpAddress } from '../../domain/ip-address.js';
import type { AutonomousSystemRegistration, NetworkRegistration } from '../../domain/number-registration.js';
import type {
  LookupFailure,
  NumberRegistrationResult,
  NumberRegistrationSource,
  RegistrationResult,
  RegistrationSource,
} from '../../domain/ports.js';
import type { OutboundGuard } from '../../../../platform/upstream/outbound-guard.js';
import { UpstreamClient } from '../../../../platform/upstream/upstream-client.js';
import type { UpstreamCallCounter, UpstreamResult } from '../../../../platform/upstream/upstream-call.js';
import {
  asnServiceOf,
  networkServiceOf,
  RdapAsnBootstrap,
  RdapAutnum,
  RdapBootstrap,
  RdapDomain,
  RdapIpNetwork,
  RdapNetworkBootstrap,
  type RdapServices,
} from './rdap-objects.js';

/** IANA publishes the bootstrap file daily at most. */
const BOOTSTRAP_TTL_MS = 86_400_000;
const DEFAULT_FAILURE_TTL_MS = 5_000;
const DEFAULT_HOST_TTL_MS = 60_000;
const DEFAULT_BACKOFF_MS = 30_000;

export interface RdapOptions {
  /** IANA's bootstrap file for domains (`https://data.iana.org/rdap/dns.json`). */
  readonly bootstrapUrl: string;
  /** IANA's bootstrap files for IPv4 and IPv6 addresses and AS numbers (`ipv4.json`, `ipv6.json`, `asn.json`); without one, nothing of its kind is served. */
  readonly ipv4BootstrapUrl?: string;
  readonly ipv6BootstrapUrl?: string;
  readonly asnBootstrapUrl?: string;
  /** Every call has this deadline, body included. */
  readonly timeoutMs: number;
  /** How long a domain object is kept. */
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly failureTtlMs?: number;
  readonly hostTtlMs?: number;
  readonly backoffMs?: number;
}

export interface RdapDependencies {
  /** What every registry the bootstrap file names is connected through; the file's own server is trusted as configured. */
  readonly guard: OutboundGuard;
  readonly fetch?: typeof globalThis.fetch;
  readonly clock?: Clock;
  readonly countCall?: UpstreamCallCounter;
}

/**
 * Registration data over RDAP: the service of the TLD, the address block or the AS number block
 * from IANA's bootstrap file of its kind (kept for a day, and served stale when IANA cannot be
 * asked), then the object from that service. Each service is an upstream of its own, shared by
 * every kind (a regional registry serves addresses and AS numbers), so that one registry's 429 or
 * outage leaves the others alone. Registries are named by the bootstrap files, not by the
 * operator: they are connected through the guard, and a redirect is followed only on the same
 * host or to another registry the same file names (a regional registry sends a block it handed
 * to another one there).
 */
export class RdapRegistrationSource implements RegistrationSource, NumberRegistrationSource {
  private readonly bootstrap: UpstreamClient;
  private readonly numberBootstraps: {
    readonly ipv4?: UpstreamClient;
    readonly ipv6?: UpstreamClient;
    readonly asn?: UpstreamClient;
  };
  private readonly registries = new Map<string, UpstreamClient>();
  /** The origins of the registries of the bootstrap file last read, where a redirect may lead. */
  private registryOrigins: { readonly of?: RdapServices; readonly origins: ReadonlySet<string> } = {
    origins: new Set(),
  };

  constructor(
    private readonly options: RdapOptions,
    private readonly logger: Logger,
    private readonly dependencies: RdapDependencies,
  ) {
    this.bootstrap = this.upstream('rdap-bootstrap', options.bootstrapUrl, 'trusted');
    const trusted = (name: string, url: string | undefined) =>
      url === undefined ? undefined : this.upstream(name, url, 'trusted');
    this.numberBootstraps = {
      ipv4: trusted('rdap-bootstrap-ipv4', options.ipv4BootstrapUrl),
      ipv6: trusted('rdap-bootstrap-ipv6', options.ipv6BootstrapUrl),
      asn: trusted('rdap-bootstrap-asn', options.asnBootstrapUrl),
    };
  }

  async network(address: IpAddress, context: CallContext = {}): Promise<NumberRegistrationResult<NetworkRegistration>> {
    const bootstrap = address.version === 4 ? this.numberBootstraps.ipv4 : this.numberBootstraps.ipv6;
    const file = `the RDAP bootstrap file for IPv${address.version}`;
    if (bootstrap === undefined) return { kind: 'no-service' };
    const services = await bootstrap.get('', {
      ttlMs: BOOTSTRAP_TTL_MS,
      decoder: RdapNetworkBootstrap,
      requestId: context.requestId,
      followsRedirect: sameHost,
    });
    if (services.kind !== 'found') return failure(services, file);
    const base = networkServiceOf(services.value, address);
    if (base === undefined) return { kind: 'no-service' };
    return this.numberObject(base, `/ip/${address.text}`, RdapIpNetwork, services.value.origins, context);
  }

  async autonomousSystem(
    asn: number,
    context: CallContext = {},
  ): Promise<NumberRegistrationResult<AutonomousSystemRegistration>> {
    const bootstrap = this.numberBootstraps.asn;
    if (bootstrap === undefined) return { kind: 'no-service' };
    const services = await bootstrap.get('', {
      ttlMs: BOOTSTRAP_TTL_MS,
      decoder: RdapAsnBootstrap,
      requestId: context.requestId,
      followsRedirect: sameHost,
    });
    if (services.kind !== 'found') return failure(services, 'the RDAP bootstrap file for AS numbers');
    const base = asnServiceOf(services.value, asn);
    if (base === undefined) return { kind: 'no-service' };
    return this.numberObject(base, `/autnum/${asn}`, RdapAutnum, services.value.origins, context);
  }

  /** One object of a number registry, its URL beside it. */
  private async numberObject<A>(
    base: string,
    path: string,
    decoder: t.Decoder<unknown, A>,
    registries: ReadonlySet<string>,
    context: CallContext,
  ): Promise<NumberRegistrationResult<A & { readonly rdapUrl: string }>> {
    const found = await this.registry(base).get(path, {
      ttlMs: this.options.ttlMs,
      decoder,
      requestId: context.requestId,
      followsRedirect: (to, from) => sameHost(to, from) || registries.has(to.origin),
    });
    if (found.kind === 'not-found') return found;
    if (found.kind !== 'found') return failure(found, `the RDAP service at ${new URL(base).host}`);
    return { kind: 'found', registration: { ...found.value, rdapUrl: base.replace(/\/+$/, '') + path } };
  }

  /** The upstream of one registry's service, made the first time it is asked. */
  private registry(base: string): UpstreamClient {
    let registry = this.registries.get(base);
    if (registry === undefined) {
      registry = this.upstream('rdap', base, 'guarded');
      this.registries.set(base, registry);
    }
    return registry;
  }

  async registration(domain: string, context: CallContext = {}): Promise<RegistrationResult> {
    const services = await this.bootstrap.get('', {
      ttlMs: BOOTSTRAP_TTL_MS,
      decoder: RdapBootstrap,
      requestId: context.requestId,
      followsRedirect: sameHost,
    });
    if (services.kind !== 'found') return failure(services, 'the RDAP bootstrap file');
    const tld = domain.slice(domain.lastIndexOf('.') + 1);
    const base = services.value.get(tld);
    if (base === undefined) return { kind: 'no-service' };
    const registry = this.registry(base);
    const path = `/domain/${domain}`;
    const registries = this.originsOf(services.value);
    const followsRedirect = (to: URL, from: URL) => sameHost(to, from) || registries.has(to.origin);
    const found = await registry.get(path, {
      ttlMs: this.options.ttlMs,
      decoder: RdapDomain,
      requestId: context.requestId,
      followsRedirect,
    });
    if (found.kind === 'not-found') return found;
    if (found.kind !== 'found') return failure(found, `the RDAP service of .${tld}`);
    return { kind: 'found', registration: { ...found.value, rdapUrl: base.replace(/\/+$/, '') + path } };
  }

  private upstream(name: string, baseUrl: string, trust: 'trusted' | 'guarded'): UpstreamClient {
    const {
      timeoutMs,
      maxEntries,
      failureTtlMs = DEFAULT_FAILURE_TTL_MS,
      hostTtlMs = DEFAULT_HOST_TTL_MS,
      backoffMs = DEFAULT_BACKOFF_MS,
    } = this.options;
    const { guard, ...dependencies } = this.dependencies;
    return new UpstreamClient(
      { name, baseUrl, deadlineMs: timeoutMs, maxEntries, defaultBackoffMs: backoffMs, failureTtlMs, hostTtlMs },
      { ...dependencies, logger: this.logger, ...(trust === 'guarded' && { guard }) },
    );
  }

  private originsOf(services: RdapServices): ReadonlySet<string> {
    if (this.registryOrigins.of !== services)
      this.registryOrigins = {
        of: services,
        origins: new Set([...services.values()].map((base) => new URL(base).origin)),
      };
    return this.registryOrigins.origins;
  }
}

/** `http:` to `https:` on the same host keeps the host (the default ports are not written). */
const sameHost = (to: URL, from: URL): boolean => to.host === from.host;

/** The upstream client has logged why; the domain hears only whether it was a timeout. */
function failure(result: Exclude<UpstreamResult<unknown>, { kind: 'found' }>, what: string): LookupFailure {
  if (result.kind === 'timeout')
    return { kind: 'unavailable', reason: 'timeout', details: `${what} did not answer in time` };
  return { kind: 'unavailable', reason: 'failure', details: `${what} could not be used` };
}
