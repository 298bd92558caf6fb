import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import { makeOnce } from '../caching/load-once.js';

type Undici = typeof import('undici');

export interface LookupFetch {
  readonly fetch: typeof globalThis.fetch;
  /** Loads undici if it is not yet (about 0.1 s the first time): called before a deadline starts, so that the deadline counts only the call. */
  readonly load: () => void;
}

/**
 * `fetch` over a connection pool whose sockets resolve hosts with the given `lookup` (a cached
 * one, so an upstream's host is resolved once per TTL rather than per connection). Node 20's
 * global fetch takes no `lookup`; undici, the library it is built on, takes one per dispatcher.
 * undici is loaded for the first call, not at every start: a server that never calls an upstream
 * does not carry its 6 MB.
 */
export function lookupFetch(lookup: LookupFunction): LookupFetch {
  const load = makeOnce((): { readonly fetch: Undici['fetch']; readonly dispatcher: Agent } => {
    const { Agent: Pool, fetch } = createRequire(import.meta.url)('undici') as Undici;
    return { fetch, dispatcher: new Pool({ connect: { lookup } }) };
  });
  // undici's own Request and Response types are those of the global fetch in all but name.
  const fetch = ((input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const { fetch: undiciFetch, dispatcher } = load();
    return undiciFetch(input as Parameters<Undici['fetch']>[0], { ...(init as Parameters<Undici['fetch']>[1]), dispatcher });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, load: () => void load() };
}
