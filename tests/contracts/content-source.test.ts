import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import { MemoryContentSource, type ScriptedAnswer } from '../../src/families/content/adapters/memory-content-source.js';
import { UpstreamContentSource, type UpstreamName } from '../../src/families/content/adapters/upstream-sources.js';
import type { ContentSource } from '../../src/families/content/domain/ports.js';

/** A source whose upstream answers `script`, one answer an ask, then fails every ask. */
type OpenSource = (script: readonly ScriptedAnswer[]) => Promise<{ source: ContentSource; close(): Promise<void> }>;

/** Each upstream's answer around one text, in the shape it documents. */
const ANSWER_OF: { readonly [U in UpstreamName]: (text: string) => unknown } = {
  chucknorris: (text) => ({ categories: [], id: 'scripted', url: 'https://example.test/jokes/scripted', value: text }),
  kanye: (text) => ({ quote: text }),
  ronswanson: (text) => [text],
};

/**
 * A loopback upstream that answers its script in order: a text as the upstream would send it, a
 * failure as a 500, a timeout by never answering. Once the script is spent, every ask is a 500.
 */
async function scriptedUpstream(upstream: UpstreamName, script: readonly ScriptedAnswer[]) {
  const left = [...script];
  const held = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    const answer = left.shift() ?? { unavailable: 'failure' };
    if (typeof answer === 'string') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER_OF[upstream](answer)));
    } else if (answer.unavailable === 'failure') {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"scripted failure"}');
    } else {
      held.add(res);
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const overHttp =
  (upstream: UpstreamName): OpenSource =>
  async (script) => {
    const fixture = await scriptedUpstream(upstream, script);
    const waitsForTimeout = script.some((answer) => typeof answer !== 'string' && answer.unavailable === 'timeout');
    const source = new UpstreamContentSource(
      upstream,
      {
        baseUrl: fixture.url,
        // Short only where the deadline is what is tried: a loaded machine may take long to answer on loopback.
        deadlineMs: waitsForTimeout ? 1_000 : 5_000,
        // The client's leaving a failed upstream alone has tests of its own (tests/adapters/upstream-client.test.ts):
        // here every ask reaches the upstream.
        defaultBackoffMs: 0,
        failureTtlMs: 0,
        hostTtlMs: 60_000,
      },
      { logger: pino({ level: 'silent' }) },
    );
    return { source, close: () => fixture.close() };
  };

const adapters: { readonly name: string; readonly open: OpenSource }[] = [
  { name: 'memory', open: async (script) => ({ source: new MemoryContentSource(script), close: async () => {} }) },
  { name: 'chucknorris.io over HTTP', open: overHttp('chucknorris') },
  { name: 'kanye.rest over HTTP', open: overHttp('kanye') },
  { name: 'ron-swanson-quotes over HTTP', open: overHttp('ronswanson') },
];

const FAILURE = { kind: 'unavailable', reason: 'failure' } as const;
const received = (text: string) => ({ kind: 'received', text }) as const;

for (const adapter of adapters) {
  describe(`contract: ContentSource (${adapter.name})`, () => {
    let close: (() => Promise<void>) | undefined;
    const open = async (script: readonly ScriptedAnswer[]): Promise<ContentSource> => {
      const opened = await adapter.open(script);
      close = opened.close;
      return opened.source;
    };
    afterEach(async () => {
      await close?.();
      close = undefined;
    });

    it('gives each text its upstream answers, one an ask, in turn', async () => {
      const source = await open(['Facts come in order.', 'So do quotes.']);
      expect(await source.next()).to.deep.equal(received('Facts come in order.'));
      expect(await source.next()).to.deep.equal(received('So do quotes.'));
    });

    it('trims a text as every entry is trimmed, and keeps what lies beyond ASCII as it is', async () => {
      const source = await open(['  \n Ein Zitat über «Käse» 🧀\t ']);
      expect(await source.next()).to.deep.equal(received('Ein Zitat über «Käse» 🧀'));
    });

    it('refuses, as a failure, a text no entry may hold: empty, over 1,000 characters, with a control character', async () => {
      const source = await open(['   ', 'x'.repeat(1_001), 'a bell\u0007 rings', 'x'.repeat(1_000)]);
      expect(await source.next()).to.deep.equal(FAILURE);
      expect(await source.next()).to.deep.equal(FAILURE);
      expect(await source.next()).to.deep.equal(FAILURE);
      expect(await source.next(), 'the longest text an entry may hold').to.deep.equal(received('x'.repeat(1_000)));
    });

    it('fails when its upstream fails, and gives the next text once it answers again', async () => {
      const source = await open([{ unavailable: 'failure' }, 'Back again.']);
      expect(await source.next()).to.deep.equal(FAILURE);
      expect(await source.next()).to.deep.equal(received('Back again.'));
    });

    it('fails, every time, once its upstream has nothing more to give', async () => {
      const source = await open(['The only one.']);
      expect(await source.next()).to.deep.equal(received('The only one.'));
      expect(await source.next()).to.deep.equal(FAILURE);
      expect(await source.next()).to.deep.equal(FAILURE);
    });

    it('says so when its upstream does not answer in time', async () => {
      const source = await open([{ unavailable: 'timeout' }]);
      expect(await source.next()).to.deep.equal({ kind: 'unavailable', reason: 'timeout' });
    });
  });
}
