import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../support/http-server.js';

/** What came back on a connection the test opened, and how it ended. */
interface Exchanged {
  readonly status: number | undefined;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** From the last byte written to the server's closing its side (or the connection's close), in milliseconds. */
  readonly closedAfterMs: number;
  /**
   * From the last byte written until the server had let go of the connection altogether, as the
   * client finds out by writing after the server's FIN: only a socket closed for good answers that
   * with a reset.
   */
  readonly releasedAfterMs: number;
}

interface Conduct {
  /**
   * After writing: 'stall' sends nothing more and never closes; 'trickle' sends one more byte every
   * 100 ms; 'end' closes its side (FIN); 'reset' drops the connection.
   */
  readonly then: 'stall' | 'trickle' | 'end' | 'reset';
  /** Give up waiting for the server to close after this long (the test then fails on `closedAfterMs`). */
  readonly waitMs?: number;
}

/**
 * Writes `bytes` on a connection of its own and waits until the connection is closed: by the
 * server (the client never closes its side unless told to end, and keeps it open after the
 * server's FIN), or by the test after `waitMs`.
 */
function exchange(port: number, bytes: string | Buffer, { then, waitMs = 15_000 }: Conduct): Promise<Exchanged> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let wrote = 0;
    let ended: number | undefined;
    let probing: NodeJS.Timeout | undefined;
    let trickling: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('end', () => {
      ended = performance.now();
      clearInterval(trickling);
      if (then === 'stall' || then === 'trickle') probing = setInterval(() => socket.write('\r\n'), 50);
    });
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(probing);
      clearInterval(trickling);
      const closed = performance.now();
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({
        status: text === '' ? undefined : Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
        closedAfterMs: (ended ?? closed) - wrote,
        releasedAfterMs: closed - wrote,
      });
    });
    socket.write(bytes, () => {
      wrote = performance.now();
      if (then === 'end') socket.end();
      if (then === 'reset') socket.resetAndDestroy();
      if (then === 'trickle') trickling = setInterval(() => socket.write('x'), 100);
    });
  });
}

const LOG_INFO = 30;

/** A server on memory storage with the given `http` settings, logging to a file of its own. */
async function serverWith(
  http: Record<string, number>,
): Promise<{ server: TestServer; token: string; logLines(): Record<string, unknown>[]; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'utility-api-unfinished-'));
  const file = join(dir, 'server.log');
  const fd = openSync(file, 'w');
  const server = await startServer({
    env: { UTILITY_API_STORAGE: 'memory' },
    logFd: fd,
    overrides: { http, log: { level: 'info' } },
  });
  const token = await server.tokenFor(['*']);
  return {
    server,
    token,
    logLines: () => {
      server.app.flushLogs();
      return readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    async close() {
      await server.close();
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POST /api/token/create declaring `declared` bytes of body and sending the first `sent` of them. */
const unfinishedPost = (token: string, requestId: string, declared: number, sent: number): string =>
  `POST /api/token/create HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nX-Request-Id: ${requestId}\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{"name":"${'a'.repeat(sent - 9)}`;

const errorBodyOf = (exchanged: Exchanged): { code: number; message: string; details?: string } =>
  JSON.parse(exchanged.body) as { code: number; message: string };

describe('http: requests that never finish arriving', function () {
  this.timeout(60_000);

  describe('with short timeouts (0.5 s)', () => {
    const timeouts = { bodyTimeoutMs: 500, headersTimeoutMs: 500, keepAliveTimeoutMs: 500 };
    let running: Awaited<ReturnType<typeof serverWith>>;
    before(async () => {
      running = await serverWith(timeouts);
    });
    after(() => running?.close());

    it('answers a body that stops arriving with 408 code 9 once http.bodyTimeoutMs has passed, and closes the connection', async () => {
      const exchanged = await exchange(
        running.server.port,
        unfinishedPost(running.token, 'stalled-body', 16_000, 15_000),
        { then: 'stall' },
      );
      expect(exchanged.status).to.equal(408);
      expect(exchanged.headers).to.include({ connection: 'close', 'content-type': 'application/json; charset=utf-8' });
      expect(errorBodyOf(exchanged)).to.deep.equal({
        code: 9,
        message: 'The request did not arrive in time',
        details: 'The body did not arrive within 500 ms of the headers',
      });
      expect(exchanged.closedAfterMs, 'not before the deadline').to.be.at.least(450);
      expect(running.logLines().filter((line) => line.requestId === 'stalled-body'))
        .to.have.length(1)
        .and.to.satisfy(([line]: Record<string, unknown>[]) => line!.status === 408);
    });

    it('closes the connection of a body that trickles in after an answer that did not need it, at the body deadline', async () => {
      // Turned away before its body is read (no token), while the body goes on arriving.
      const request = `POST /api/token/create HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"`;
      // A byte every 100 ms keeps the connection from ever being idle: only the body's deadline ends it.
      const exchanged = await exchange(running.server.port, request, { then: 'trickle' });
      expect(exchanged.status).to.equal(401);
      expect(exchanged.closedAfterMs, 'not before the deadline').to.be.at.least(450);
      expect(exchanged.closedAfterMs, 'at the 0.5 s deadline, give or take a loaded machine').to.be.below(4_000);
    });

    it('answers a body that trickles in too slowly with 408 code 9 at the body deadline', async () => {
      const exchanged = await exchange(
        running.server.port,
        unfinishedPost(running.token, 'trickled-body', 16_000, 100),
        { then: 'trickle' },
      );
      expect(exchanged.status).to.equal(408);
      expect(errorBodyOf(exchanged)).to.deep.include({ code: 9 });
      expect(exchanged.closedAfterMs, 'at the 0.5 s deadline, give or take a loaded machine').to.be.below(4_000);
    });

    it('answers headers that stop arriving with 408 code 9 after http.headersTimeoutMs, and closes the connection though the client never does', async () => {
      const exchanged = await exchange(
        running.server.port,
        `GET /api/crypto/enc?data=x HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${running.token}\r\n`,
        { then: 'stall' },
      );
      expect(exchanged.status).to.equal(408);
      expect(errorBodyOf(exchanged)).to.deep.equal({
        code: 9,
        message: 'The request did not arrive in time',
        details: 'The request line and headers did not arrive within 500 ms',
      });
      expect(exchanged.closedAfterMs, 'not before the deadline').to.be.at.least(450);
      expect(exchanged.releasedAfterMs, 'let go within a few seconds of the answer').to.be.below(10_000);
    });

    it('closes a kept-alive connection left idle for http.keepAliveTimeoutMs', async () => {
      const exchanged = await exchange(running.server.port, `GET /livez HTTP/1.1\r\nHost: localhost\r\n\r\n`, {
        then: 'stall',
      });
      expect(exchanged.status).to.equal(200);
      expect(exchanged.headers.connection).to.equal('keep-alive');
      expect(exchanged.closedAfterMs, 'not before the timeout').to.be.at.least(450);
      expect(exchanged.closedAfterMs, "at the 0.5 s timeout, not Node's 5 s").to.be.below(4_000);
    });
  });

  describe('with a 1 s socket timeout', () => {
    let running: Awaited<ReturnType<typeof serverWith>>;
    before(async () => {
      running = await serverWith({ socketTimeoutMs: 1_000 });
    });
    after(() => running?.close());

    it('closes the connection of a client that asks and never reads its answers, once nothing has moved for http.socketTimeoutMs', async () => {
      const document = await (await running.server.get('/api/openapi.json')).arrayBuffer();
      const asked = 20;
      const socket = connect({ port: running.server.port, host: '127.0.0.1' });
      socket.pause();
      socket.write(`GET /api/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(asked));
      // Long past the timeout, the client starts reading: what the server had not sent is gone, and so is the connection.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const received = await new Promise<{ bytes: number; endedByServer: boolean }>((resolve) => {
        let bytes = 0;
        const giveUp = setTimeout(() => {
          socket.destroy();
          resolve({ bytes, endedByServer: false });
        }, 10_000);
        socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
        socket.on('error', () => {});
        socket.on('end', () => {
          clearTimeout(giveUp);
          socket.destroy();
          resolve({ bytes, endedByServer: true });
        });
        socket.resume();
      });
      expect(received.endedByServer, 'the server closed the connection').to.equal(true);
      expect(received.bytes, 'not every answer was sent').to.be.below(asked * document.byteLength);
    });
  });

  describe('with the default body timeout (10 s)', () => {
    let running: Awaited<ReturnType<typeof serverWith>>;
    before(async () => {
      running = await serverWith({});
    });
    after(() => running?.close());

    it('refuses a body sent to an endpoint that takes none (400 code 11) and closes its connection at once', async () => {
      const request = `GET /api/crypto/enc?data=x HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${running.token}\r\nContent-Length: 1000\r\n\r\n0123456789`;
      const exchanged = await exchange(running.server.port, request, { then: 'trickle' });
      expect(exchanged.status).to.equal(400);
      expect(exchanged.headers.connection).to.equal('close');
      expect(errorBodyOf(exchanged)).to.deep.include({ code: 11, details: 'this endpoint takes no body' });
      expect(exchanged.closedAfterMs, 'long before the 10 s body deadline').to.be.below(5_000);
    });

    it('answers a malformed chunked body with 400 code 9 and closes the connection, logged as that 400 and nothing else', async () => {
      const request =
        `POST /api/token/create HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${running.token}\r\nX-Request-Id: bad-chunk\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{"name":"x"}\r\n';
      const exchanged = await exchange(running.server.port, request, { then: 'stall' });
      expect(exchanged.status).to.equal(400);
      expect(exchanged.headers.connection).to.equal('close');
      expect(errorBodyOf(exchanged)).to.deep.include({ code: 9, message: 'Invalid Header Parameter(s)' });
      expect(errorBodyOf(exchanged).details).to.match(/^Malformed HTTP request: .*chunk size/);
      expect(exchanged.closedAfterMs, 'answered at once, long before the 10 s body deadline').to.be.below(5_000);
      const lines = running.logLines();
      expect(lines.filter((line) => line.requestId === 'bad-chunk').map((line) => line.status)).to.deep.equal([400]);
      expect(lines.filter((line) => Number(line.level) > LOG_INFO)).to.deep.equal([]);
    });

    for (const then of ['end', 'reset'] as const) {
      it(`lets a client that leaves mid-body (${then === 'end' ? 'closing its side' : 'resetting'}) go at once: one info line with status 499, no error, no 500 counted`, async () => {
        const requestId = `gone-${then}`;
        const exchanged = await exchange(
          running.server.port,
          unfinishedPost(running.token, requestId, 16_000, 15_000),
          { then, waitMs: 5_000 },
        );
        expect(exchanged.status, 'nothing answered').to.equal(undefined);
        expect(exchanged.closedAfterMs, 'long before the 10 s body deadline').to.be.below(5_000);
        // The request is observed when its handler returns, just after the connection closed.
        let lines = running.logLines();
        for (let wait = 0; wait < 50 && !lines.some((line) => line.requestId === requestId); wait++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          lines = running.logLines();
        }
        const ofRequest = lines.filter((line) => line.requestId === requestId);
        expect(ofRequest).to.have.length(1);
        expect(ofRequest[0]).to.include({ level: LOG_INFO, status: 499, msg: 'request' });
        expect(JSON.stringify(lines)).not.to.match(/"stack"|"err"/);
        expect(lines.filter((line) => Number(line.level) > LOG_INFO)).to.deep.equal([]);
        const metrics = await (
          await running.server.get('/metrics', { Authorization: `Bearer ${running.token}` })
        ).text();
        expect(metrics).to.match(
          /http_request_duration_seconds_count\{method="POST",route="\/api\/token\/create",status="499"\} [1-9]/,
        );
        expect(metrics).not.to.include('status="500"');
      });
    }
  });
});
