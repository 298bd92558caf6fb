import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * `fetch` over a connection pool whose sockets resolve hosts with the given `lookup` (a cached
 * one, so an upstream's host is resolved once per TTL rather than per connection). Node 20's
 * global fetch takes no `lookup`; undici, the library it is built on, takes one per dispatcher.
 */
export function lookupFetch(lookup: LookupFunction): typeof globalThis.fetch {
  const dispatcher = new Agent({ connect: { lookup } });
  // undici's own Request and Response types are those of the global fetch in all but name.
  return ((input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher })) as unknown as typeof globalThis.fetch;
}
