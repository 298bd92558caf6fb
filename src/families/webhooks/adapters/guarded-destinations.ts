import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { OutboundGuard } from '../../../platform/upstream/outbound-guard.js';
import type { WebhookDestinations } from '../domain/ports.js';

/** The host of a URL as a socket takes it: an IPv6 address without its brackets. */
export const socketHostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Where an endpoint's URL leads, as the outbound guard sees it: an address as written, a name by
 * what it resolves to now (the same lookup every delivery connects through, which checks again
 * at each connection, since a name may resolve elsewhere later).
 */
export class GuardedDestinations implements WebhookDestinations {
  constructor(
    private readonly guard: OutboundGuard,
    private readonly lookup: LookupFunction,
  ) {}

  async refusalOf(url: URL): Promise<string | undefined> {
    const host = socketHostOf(url);
    if (isIP(host) !== 0) return this.guard.refusalOf(host)?.message;
    const guarded = this.guard.lookup(this.lookup);
    return new Promise((resolve) =>
      guarded(host, { all: true }, (error: NodeJS.ErrnoException | null, _addresses: LookupAddress[] | string) => {
        if (error === null) resolve(undefined);
        else if (error.name === 'RefusedDestination') resolve(error.message);
        else resolve(`the url's host ${host} does not resolve (${error.code ?? error.message})`);
      }),
    );
  }
}
