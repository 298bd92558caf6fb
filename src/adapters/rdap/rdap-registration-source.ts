import type { Logger } from 'pino';
import type { CallContext } from '../../domain/call-context.js';
import type { Clock } from '../../domain/ports.js';
import type { RegistrationResult, RegistrationSource } from '../../domain/whois/ports.js';
import { UpstreamClient, type UpstreamCallCounter, type UpstreamResult } from '../upstream/upstream-client.js';
import { RdapBootstrap, RdapDomain } from './rdap-objects.js';

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
  readonly fetch?: typeof globalThis.fetch;
  readonly clock?: Clock;
  readonly countCall?: UpstreamCallCounter;
}

/**
 * Registration data over RDAP: the TLD's service from IANA's bootstrap file (kept for a day, and
 * served stale when IANA cannot be asked), then the domain object from that service. Each service
 * is an upstream of its own, so that one registry's 429 or outage leaves the others alone.
 */
export class RdapRegistrationSource implements RegistrationSource {
  private readonly bootstrap: UpstreamClient;
  private readonly registries = new Map<string, UpstreamClient>();

  constructor(
    private readonly options: RdapOptions,
    private readonly logger: Logger,
    private readonly dependencies: RdapDependencies = {},
  ) {
    this.bootstrap = this.upstream('rdap-bootstrap', options.bootstrapUrl);
  }

  async registration(domain: string, context: CallContext = {}): Promise<RegistrationResult> {
    const services = await this.bootstrap.get('', { ttlMs: BOOTSTRAP_TTL_MS, decoder: RdapBootstrap, requestId: context.requestId });
    if (services.kind !== 'found') return failure(services, 'the RDAP bootstrap file');
    const tld = domain.slice(domain.lastIndexOf('.') + 1);
    const base = services.value.get(tld);
    if (base === undefined) return { kind: 'no-service' };
    let registry = this.registries.get(base);
    if (registry === undefined) {
      registry = this.upstream('rdap', base);
      this.registries.set(base, registry);
    }
    const path = `/domain/${domain}`;
    const found = await registry.get(path, { ttlMs: this.options.ttlMs, decoder: RdapDomain, requestId: context.requestId });
    if (found.kind === 'not-found') return found;
    if (found.kind !== 'found') return failure(found, `the RDAP service of .${tld}`);
    return { kind: 'found', registration: { ...found.value, rdapUrl: base.replace(/\/+$/, '') + path } };
  }

  private upstream(name: string, baseUrl: string): UpstreamClient {
    const { timeoutMs, maxEntries, failureTtlMs = DEFAULT_FAILURE_TTL_MS, hostTtlMs = DEFAULT_HOST_TTL_MS, backoffMs = DEFAULT_BACKOFF_MS } = this.options;
    return new UpstreamClient(
      { name, baseUrl, deadlineMs: timeoutMs, maxEntries, defaultBackoffMs: backoffMs, failureTtlMs, hostTtlMs },
      { ...this.dependencies, logger: this.logger },
    );
  }
}

/** The upstream client has logged why; the domain hears only whether it was a timeout. */
function failure(result: Exclude<UpstreamResult<unknown>, { kind: 'found' }>, what: string): RegistrationResult {
  if (result.kind === 'timeout') return { kind: 'unavailable', reason: 'timeout', details: `${what} did not answer in time` };
  return { kind: 'unavailable', reason: 'failure', details: `${what} could not be used` };
}
