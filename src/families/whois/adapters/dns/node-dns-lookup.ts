import type { CaaRecord } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import type { CallContext } from '../../../../domain/call-context.js';
import type { DnsLookup, DnsResult, LookupFailure } from '../../domain/ports.js';
import type { CertificationAuthorityAuthorization, DnsRecords, StartOfAuthority } from '../../domain/records.js';

export interface NodeDnsOptions {
  /** `host` or `host:port` (`[v6]:port`); empty for the system's resolvers. */
  readonly servers: readonly string[];
  /** Every lookup, all record types together, has this deadline. */
  readonly timeoutMs: number;
}

/** c-ares' answer codes that mean "no record of this type", "no such name", "no answer in time". */
const NO_DATA = new Set(['ENODATA']);
const NO_SUCH_NAME = new Set(['ENOTFOUND']);
const TIMED_OUT = new Set(['ETIMEOUT', 'ECANCELLED']);
/** c-ares' codes for "no resolver took the question": refused connections, no servers, no network. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTINITIALIZED', 'ENOSERVER']);

type Outcome<A> =
  | { readonly ok: true; readonly value: A; readonly ttl?: number }
  | { readonly ok: false; readonly error: NodeJS.ErrnoException };

/**
 * DNS through Node's c-ares resolver: one query per record type (never `ANY`, which servers
 * answer partially or not at all), all at once, against the configured servers. A truncated UDP
 * answer is asked again over TCP by c-ares itself.
 */
export class NodeDnsLookup implements DnsLookup {
  constructor(private readonly options: NodeDnsOptions) {}

  async records(name: string, _context: CallContext = {}): Promise<DnsResult> {
    // A resolver of its own, so that the deadline cancels this lookup's queries and no other's.
    const resolver = new Resolver({ timeout: this.options.timeoutMs, tries: 1 });
    if (this.options.servers.length > 0) resolver.setServers([...this.options.servers]);
    const deadline = setTimeout(() => resolver.cancel(), this.options.timeoutMs);
    try {
      const ask = <A>(query: Promise<A>): Promise<Outcome<A>> =>
        query.then(
          (value) => ({ ok: true as const, value }),
          (error: NodeJS.ErrnoException) => ({ ok: false as const, error }),
        );
      const [a, aaaa, cname, mx, ns, txt, soa, caa, srv, ptr] = await Promise.all([
        ask(resolver.resolve4(name, { ttl: true })),
        ask(resolver.resolve6(name, { ttl: true })),
        ask(resolver.resolveCname(name)),
        ask(resolver.resolveMx(name)),
        ask(resolver.resolveNs(name)),
        ask(resolver.resolveTxt(name)),
        ask(resolver.resolveSoa(name)),
        ask(resolver.resolveCaa(name)),
        ask(resolver.resolveSrv(name)),
        ask(resolver.resolvePtr(name)),
      ]);
      const outcomes = [a, aaaa, cname, mx, ns, txt, soa, caa, srv, ptr];
      const failed = outcomes.flatMap((outcome) =>
        outcome.ok || NO_DATA.has(outcome.error.code ?? '') ? [] : [outcome.error],
      );
      const timedOut = failed.find((error) => TIMED_OUT.has(error.code ?? ''));
      if (timedOut)
        return this.failure('timeout', `DNS gave no answer for ${name} within ${this.options.timeoutMs} ms`, timedOut);
      const other = failed.find((error) => !NO_SUCH_NAME.has(error.code ?? ''));
      if (other) return this.failure('failure', this.failedWith(name, other), other);
      // Awaited here, so that the deadline still runs while the root is asked.
      if (failed.length > 0) return await this.nameNotFound(name, resolver);

      const value = <A>(outcome: Outcome<A>, none: A): A => (outcome.ok ? outcome.value : none);
      const addresses = [...value(a, []), ...value(aaaa, [])];
      const records: DnsRecords = {
        A: value(a, []).map((record) => record.address),
        AAAA: value(aaaa, []).map((record) => record.address),
        CNAME: value(cname, []),
        MX: [...value(mx, [])]
          .sort((x, y) => x.priority - y.priority)
          .map(({ exchange, priority }) => ({ exchange, priority })),
        NS: value(ns, []),
        TXT: value(txt, []).map((chunks) => chunks.join('')),
        SOA: soa.ok ? startOfAuthority(soa.value) : null,
        CAA: value(caa, []).map(authorization),
        SRV: value(srv, []).map(({ name: target, port, priority, weight }) => ({
          name: target,
          port,
          priority,
          weight,
        })),
        PTR: value(ptr, []),
      };
      // Only addresses come with their TTL from Node; the others' is not known.
      const ttlSeconds = addresses.length > 0 ? Math.min(...addresses.map((record) => record.ttl)) : undefined;
      return { kind: 'found', records, ttlMs: ttlSeconds === undefined ? undefined : ttlSeconds * 1000 };
    } finally {
      clearTimeout(deadline);
    }
  }

  /**
   * NXDOMAIN is believed only from a resolver that knows the rest of DNS: one that says the root
   * zone does not exist either (a stub on a machine with no DNS answers NXDOMAIN to everything)
   * gives no DNS at all, which is no answer about this name.
   */
  private async nameNotFound(name: string, resolver: Resolver): Promise<DnsResult> {
    try {
      await resolver.resolveNs('.');
      return { kind: 'not-found' };
    } catch (caught) {
      const error = caught as NodeJS.ErrnoException;
      if (TIMED_OUT.has(error.code ?? ''))
        return this.failure('timeout', `DNS gave no answer within ${this.options.timeoutMs} ms`, error);
      if (NO_SUCH_NAME.has(error.code ?? ''))
        return this.failure(
          'failure',
          `the DNS resolver answers NXDOMAIN even for the root zone: it gives no DNS, so whether ${name} exists is not known`,
          error,
        );
      return this.failure('failure', this.failedWith(name, error), error);
    }
  }

  /** What went wrong, saying so when no resolver could be reached at all. */
  private failedWith(name: string, error: NodeJS.ErrnoException): string {
    return UNREACHABLE.has(error.code ?? '')
      ? `no DNS resolver could be reached (${error.code})`
      : `DNS failed for ${name}: ${error.code ?? error.message}`;
  }

  private failure(reason: LookupFailure['reason'], details: string, cause: NodeJS.ErrnoException): LookupFailure {
    return { kind: 'unavailable', reason, details, cause };
  }
}

function startOfAuthority({
  nsname,
  hostmaster,
  serial,
  refresh,
  retry,
  expire,
  minttl,
}: StartOfAuthority): StartOfAuthority {
  return { nsname, hostmaster, serial, refresh, retry, expire, minttl };
}

/** Node gives a CAA record as `{critical, <tag>: value}`: the one key beside `critical` is the tag, whichever it is. */
function authorization(record: CaaRecord): CertificationAuthorityAuthorization {
  const [tag = '', value = ''] = Object.entries(record).find(([key]) => key !== 'critical') ?? [];
  return { critical: record.critical !== 0, tag, value: String(value) };
}
