import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';

/** Statuses whose responses have no body; `Response` refuses one for them. */
const BODILESS = new Set([101, 204, 205, 304]);

/**
 * `fetch` for body-less requests (what the upstream client sends), over keep-alive agents that
 * resolve hosts with the given `lookup`. Node 20's global fetch takes no `lookup`: only an undici
 * dispatcher, and undici is bundled there, not a package we could build one from.
 */
export function agentFetch(lookup: LookupFunction): typeof globalThis.fetch {
  const agents: Record<string, HttpAgent> = {
    'http:': new HttpAgent({ keepAlive: true, lookup }),
    'https:': new HttpsAgent({ keepAlive: true, lookup }),
  };
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const agent = agents[url.protocol];
      if (!agent) return reject(new TypeError(`cannot fetch ${url.protocol} URLs`));
      if (init.body !== undefined && init.body !== null) return reject(new TypeError('agentFetch sends no request bodies'));
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);

      let response: IncomingMessage | undefined;
      const abort = () => {
        request.destroy(signal?.reason);
        response?.destroy(signal?.reason);
      };
      const request: ClientRequest = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        agent,
      });
      signal?.addEventListener('abort', abort, { once: true });
      request.on('error', (error) => {
        signal?.removeEventListener('abort', abort);
        reject(error);
      });
      request.on('response', (incoming) => {
        response = incoming;
        incoming.on('close', () => signal?.removeEventListener('abort', abort));
        const headers = new Headers();
        for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        const status = incoming.statusCode ?? 0;
        if (BODILESS.has(status)) incoming.resume();
        try {
          resolve(new Response(BODILESS.has(status) ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array> as globalThis.ReadableStream<Uint8Array>), { status, headers }));
        } catch (error) {
          // A status `Response` cannot carry (below 200, above 599) is no answer we can use.
          incoming.destroy();
          reject(error as Error);
        }
      });
      request.end();
    });
}
