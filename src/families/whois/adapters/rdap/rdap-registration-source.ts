import type { Logger } from 'pino';
import type { CallContext } from '../../../../domain/call-context.js';
import type { Clock } from '../../../../domain/ports.js';
import type { RegistrationResult, RegistrationSource } from '../../domain/ports.js';
import type { OutboundGuard } from '../../../../platform/upstream/outbound-guard.js';
import { UpstreamClient } from '../../../../platform/upstream/upstream-client.js';
import type { UpstreamCallCounter, UpstreamResult } from '../../../../platform/upstream/upstream-call.js';
import { RdapBootstrap, RdapDomain, type RdapServices } from './rdap-objects.js';

/** IANA publishes the bootstrap file daily at most. */
const BOOTSTRAP_TTL_MS = 86_400_000;
const DEFAULT_FAILURE_TTL_MS = 5_000;
const DEFAULT_HOST_TTL_MS = 60_000;
const DEFAULT_BACKOFF_MS = 30_000;

export interface RdapOptions {
  /** IANA's bootstrap file for domains (`https://data.iana.org/rdap/dns.json`). */
  readonly bootstrapUrl: string;
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
 * Registration data over RDAP: the TLD's service from IANA's bootstrap file (kept for a day, and
 * served stale when IANA cannot be asked), then the domain object from that service. Each service
 * is an upstream of its own, so that one registry's 429 or outage leaves the others alone.
 * Registries are named by the bootstrap file, not by the operator: they are connected through the
 * guard, and a redirect is followed only on the same host or to another registry the file names.
 */
export class RdapRegistrationSource implements RegistrationSource {
  private readonly bootstrap: UpstreamClient;
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
    let registry = this.registries.get(base);
    if (registry === undefined) {
      registry = this.upstream('rdap', base, 'guarded');
      this.registries.set(base, registry);
    }
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
function failure(result: Exclude<UpstreamResult<unknown>, { kind: 'found' }>, what: string): RegistrationResult {
  if (result.kind === 'timeout')
    return { kind: 'unavailable', reason: 'timeout', details: `${what} did not answer in time` };
  return { kind: 'unavailable', reason: 'failure', details: `${what} could not be used` };
}
