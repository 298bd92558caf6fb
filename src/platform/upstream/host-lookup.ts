import { promises as dns, type LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { Clock } from '../../domain/ports.js';
import { SystemClock } from '../clock/system-clock.js';

export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

export interface HostLookupOptions {
  /** How long a host's addresses are used before it is resolved again. */
  readonly ttlMs: number;
  readonly clock?: Clock;
  /** The system resolver (getaddrinfo, as Node's own connections use) unless given. */
  readonly resolve?: ResolveHost;
}

const systemResolve: ResolveHost = (hostname) => dns.lookup(hostname, { all: true });

/**
 * Resolution by the given DNS servers (`host` or `host:port`) instead of the system's: A and AAAA
 * asked together, a name with neither failing as ENOTFOUND. An address given as the name is
 * answered as itself, as getaddrinfo does. For a family whose operator names its resolvers.
 */
export function serversResolve(servers: readonly string[], timeoutMs: number): ResolveHost {
  return async (hostname) => {
    const family = isIP(hostname);
    if (family !== 0) return [{ address: hostname, family }];
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    resolver.setServers([...servers]);
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses: LookupAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    const failure = [v4, v6].find((outcome) => outcome.status === 'rejected' && outcome.reason?.code !== 'ENODATA');
    throw failure?.status === 'rejected'
      ? failure.reason
      : Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
  };
}
const systemClock: Clock = new SystemClock();

/**
 * A `lookup` for sockets that resolves each host once per TTL, however many connections are
 * opened to it; concurrent connections share one resolution, and a failed one is not kept.
 *
 * Kept, measured (issue 25, bench/caches.ts): lru-cache 11's fetch with a TTL took 355 ns a lookup against 336 here,
 * and keeps an entry until after its TTL, where this resolves again at it.
 */
export function cachingHostLookup({
  ttlMs,
  clock = systemClock,
  resolve = systemResolve,
}: HostLookupOptions): LookupFunction {
  const resolved = new Map<string, { readonly addresses: Promise<LookupAddress[]>; readonly until: number }>();
  return (hostname, options, callback) => {
    const now = clock.now();
    let entry = resolved.get(hostname);
    if (!entry || now >= entry.until) {
      const fresh = { addresses: resolve(hostname), until: now + ttlMs };
      resolved.set(hostname, fresh);
      fresh.addresses.catch(() => {
        if (resolved.get(hostname) === fresh) resolved.delete(hostname);
      });
      entry = fresh;
    }
    entry.addresses.then(
      (all) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family ? all.filter((address) => address.family === family) : all;
        const first = wanted[0];
        if (!first)
          return callback(
            Object.assign(new Error(`no IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' }),
            '',
          );
        if (options.all) callback(null, wanted);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
