import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import type { Agent } from 'undici';

type Undici = typeof import('undici');

/**
 * `fetch` over a connection pool whose sockets resolve hosts with the given `lookup` (a cached
 * one, so an upstream's host is resolved once per TTL rather than per connection). Node 20's
 * global fetch takes no `lookup`; undici, the library it is built on, takes one per dispatcher.
 * undici is loaded at the first call, not at every start: a server that never calls an upstream
 * does not carry its few megabytes.
 */
export function lookupFetch(lookup: LookupFunction): typeof globalThis.fetch {
  let undici: { readonly fetch: Undici['fetch']; readonly dispatcher: Agent } | undefined;
  // undici's own Request and Response types are those of the global fetch in all but name.
  return ((input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    if (undici === undefined) {
      const { Agent: Pool, fetch } = createRequire(import.meta.url)('undici') as Undici;
      undici = { fetch, dispatcher: new Pool({ connect: { lookup } }) };
    }
    return undici.fetch(input as Parameters<Undici['fetch']>[0], { ...(init as Parameters<Undici['fetch']>[1]), dispatcher: undici.dispatcher });
  }) as unknown as typeof globalThis.fetch;
}
