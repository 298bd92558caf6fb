import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import type { Agent, buildConnector } from 'undici';
import { makeOnce } from '../caching/load-once.js';
import type { OutboundGuard } from './outbound-guard.js';

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
 * does not carry its 6 MB. With a guard, every connection goes through it: to the addresses
 * it allows, a name resolving to none of them failing as unreachable.
 */
export function lookupFetch(lookup: LookupFunction, guard?: OutboundGuard): LookupFetch {
  const load = makeOnce((): { readonly fetch: Undici['fetch']; readonly dispatcher: Agent } => {
    const undici = createRequire(import.meta.url)('undici') as Undici;
    const connect = guard
      ? guardedConnector(undici.buildConnector({ lookup: guard.lookup(lookup) }), guard)
      : { lookup };
    return { fetch: undici.fetch, dispatcher: new undici.Agent({ connect }) };
  });
  // undici's own Request and Response types are those of the global fetch in all but name.
  const fetch = ((input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const { fetch: undiciFetch, dispatcher } = load();
    return undiciFetch(input as Parameters<Undici['fetch']>[0], {
      ...(init as Parameters<Undici['fetch']>[1]),
      dispatcher,
    });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, load: () => void load() };
}

/**
 * undici's connector, refusing a host given as an address before connecting (sockets look up
 * names only) and a socket whose peer the guard refuses after (whatever resolved it).
 */
function guardedConnector(connect: buildConnector.connector, guard: OutboundGuard): buildConnector.connector {
  return (options, callback) => {
    const refused = guard.refusalOfHost(options.hostname);
    if (refused) return callback(refused, null);
    connect(options, (error, socket) => {
      if (error) return callback(error, null);
      const refusedPeer = guard.refusalOfPeer(socket!);
      if (refusedPeer) {
        socket!.destroy();
        return callback(refusedPeer, null);
      }
      callback(null, socket!);
    });
  };
}
