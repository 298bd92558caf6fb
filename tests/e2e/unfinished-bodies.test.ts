import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, TEST_ENCRYPTION_KEY } from '../cli/run-cli.js';
import { MAIN, startProgram, startScriptLaunch, type Running } from '../support/program.js';

/** Requests held at once, every one from the same token, each declaring 16,000 bytes of body and sending 15,000. */
const HELD = 2_000;
const DECLARED = 16_000;
const SENT = 15_000;
/** Short, so that the test waits seconds for the cut; long enough to open every connection before it. */
const BODY_TIMEOUT_MS = 8_000;

/** The sockets a process holds open, by its file descriptors. */
function socketsOf(pid: number): number {
  let sockets = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets += 1;
    } catch {
      // Closed while being counted.
    }
  }
  return sockets;
}

/** The resident set of a process, in bytes. */
const rssOf = (pid: number): number =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

async function until(check: () => boolean, withinMs: number): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return performance.now() - started;
}

/**
 * A request on a connection of its own, closed after the answer (fetch would keep it open, and the
 * server's count of sockets with it): its status and body.
 */
function once(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode!, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** A request whose body never finishes: what it was answered, once the server closes it. */
interface Held {
  readonly socket: Socket;
  readonly answered: Promise<string>;
}

function holdUnfinished(port: number, token: string): Promise<Held> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const answered = new Promise<string>((done) => {
      socket.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
      socket.on('close', () => done(Buffer.concat(chunks).toString('utf8')));
    });
    socket.once('error', reject);
    const head =
      `POST /api/token/create HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${DECLARED}\r\n\r\n`;
    socket.write(head + `{"name":"${'a'.repeat(SENT - 9)}`, () => resolve({ socket, answered }));
  });
}

describe('e2e: 2,000 requests whose bodies never finish, from one token', function () {
  this.timeout(120_000);
  let cwd: string;
  let running: Running | undefined;
  const held: Held[] = [];
  after(async () => {
    for (const { socket } of held) socket.destroy();
    await running?.stop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('still answers other clients, closes every one at the body deadline with 408 code 9, and gives back its sockets and the memory they took, twice over', async () => {
    cwd = mkdtempSync(join(tmpdir(), 'utility-api-unfinished-'));
    const env = { UTILITY_API_DATA_DIR: join(cwd, 'data'), UTILITY_API_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
    const cli = async (...args: string[]) => (await runCommand(env, args)).stdout.trimEnd();
    await cli('user', 'create', '--username', 'holder', '--permission', '*');
    const token = (await cli('token', 'create', '--username', 'holder')).split('\n').at(-1)!;
    // Started as `npm start` starts it (Node's options and the allocator's setting: see docs/production.md's
    // Memory); every request of the one token reaches the body, none is turned away by the rate limit first.
    const launch = startScriptLaunch();
    running = await startProgram({
      args: [...launch.nodeOptions, MAIN],
      env: {
        ...launch.env,
        ...env,
        UTILITY_API_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
        UTILITY_API_RATE_LIMIT: 'off',
      },
    });
    const { serverPid: pid, baseUrl, port } = running;
    const authorization = { Authorization: `Bearer ${token}` };
    const encrypt = () => once(`${baseUrl}/api/crypto/enc?data=hello`, { headers: authorization });
    for (let i = 0; i < 20; i++) expect((await encrypt()).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Where it starts: the server as it stands once it has served its first requests.
    const before = { sockets: socketsOf(pid), rss: rssOf(pid) };
    const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);

    /** HELD unfinished requests at once, all cut at the body deadline; the RSS while they were held. */
    const wave = async (): Promise<number> => {
      const opening = performance.now();
      const thisWave: Held[] = [];
      for (let first = 0; first < HELD; first += 100)
        thisWave.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(100, HELD - first) }, () => holdUnfinished(port, token)),
          )),
        );
      held.push(...thisWave);
      const openedMs = performance.now() - opening;
      expect(openedMs, 'all held before the first could be cut').to.be.below(BODY_TIMEOUT_MS);
      await until(() => socketsOf(pid) >= before.sockets + HELD, BODY_TIMEOUT_MS - openedMs);
      const during = { sockets: socketsOf(pid), rss: rssOf(pid) };

      // Another client, while all of them are held: answered, and before any of them was cut.
      const asked = performance.now();
      expect((await encrypt()).status).to.equal(200);
      expect((await once(`${baseUrl}/livez`)).status).to.equal(200);
      const answeredOtherMs = performance.now() - asked;
      expect(socketsOf(pid), 'the others were still held while it was answered').to.be.at.least(before.sockets + HELD);

      const answers = await Promise.all(thisWave.map((one) => one.answered));
      const statuses = new Map<string, number>();
      for (const answer of answers) {
        const key = `${answer.split(' ')[1]} ${/"code":(\d+)/.exec(answer)?.[1]}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).to.deep.equal({ '408 9': HELD });
      await until(() => socketsOf(pid) <= before.sockets, 10_000);
      if (process.env.REPORT_FIGURES)
        console.log(
          `      sockets ${before.sockets} → ${during.sockets}; RSS ${mb(during.rss)} MB holding ${HELD} unfinished; opened in ${Math.round(openedMs)} ms; another client answered in ${Math.round(answeredOtherMs)} ms; ` +
            `all sockets gone ${Math.round(performance.now() - opening)} ms after the first was opened (body timeout ${BODY_TIMEOUT_MS} ms)`,
        );
      return during.rss;
    };

    // V8 and the allocator give the memory back over the next idle seconds: 11 to 29 s alone here,
    // past 30 s in one CI run while the type-check had kept both cores busy. Not all of it: glibc's
    // heap keeps the small blocks 2,000 connections took (about 20 MB, 2026-11-27) for the next
    // ones. So each wave must leave the server at most half of what holding the first took above
    // where it started: a leak of what the requests held (30 MB of bodies) fails the first wave,
    // and a smaller one the second, which would add to what the first left.
    const heldFirst = await wave();
    const limit = before.rss + (heldFirst - before.rss) / 2;
    /**
     * What a wave that left too much looked like, for the failure's message: the RSS every 5 s of
     * the wait, and the server's own account of V8's heap and of the memory outside it (buffers), to
     * tell a heap V8 kept from pages the allocator kept (once in CI the RSS did not come down at all).
     */
    const unsettled: string[] = [];
    const settled = async (which: string): Promise<number> => {
      const seen: number[] = [];
      const sampling = setInterval(() => seen.push(rssOf(pid)), 5_000);
      const settledMs = await until(() => rssOf(pid) <= limit, 60_000)
        .catch(() => Number.NaN)
        .finally(() => clearInterval(sampling));
      if (Number.isNaN(settledMs)) {
        const open = socketsOf(pid);
        const metrics = (await once(`${baseUrl}/metrics`, { headers: authorization })).body;
        // The server closes its end of that connection a moment after answering.
        await until(() => socketsOf(pid) <= open, 5_000);
        const figure = (name: string) => mb(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]));
        unsettled.push(
          `after the ${which} wave, RSS every 5 s ${seen.map(mb).join(', ')} MB; V8's heap ${figure('nodejs_heap_size_used_bytes')} ` +
            `MB used of ${figure('nodejs_heap_size_total_bytes')}, outside it ${figure('nodejs_external_memory_bytes')} MB`,
        );
      }
      return settledMs;
    };
    const firstSettledMs = await settled('first');
    const afterFirst = rssOf(pid);
    await wave();
    const secondSettledMs = await settled('second');
    const after = { sockets: socketsOf(pid), rss: rssOf(pid) };
    if (process.env.REPORT_FIGURES)
      console.log(
        `      RSS ${mb(before.rss)} MB before → ${mb(heldFirst)} MB holding → ${mb(afterFirst)} MB after the first wave (within ${mb(limit)} MB after ${Math.round(firstSettledMs)} ms) → ${mb(after.rss)} MB after the second (after ${Math.round(secondSettledMs)} ms)`,
      );
    expect(after.sockets).to.be.at.most(before.sockets);
    expect(afterFirst, `what the first wave left (${unsettled.join('; ')})`).to.be.at.most(limit);
    expect(after.rss, `what the second wave left (${unsettled.join('; ')})`).to.be.at.most(limit);
    expect(
      running.log.filter((entry) => entry.level > 30),
      'no warning or error logged',
    ).to.deep.equal([]);
  });
});
