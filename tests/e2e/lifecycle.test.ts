import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgres, POSTGRES_URL, sqlDatabases } from '../support/databases.js';
import { getWith, hammer } from '../support/keep-alive-load.js';
import { runCommand } from '../cli/run-cli.js';
import { cleanEnv, MAIN, ROOT, startProgram, type LogEntry } from '../support/program.js';

/**
 * The service as a supervisor runs it: started by `npm start` or `node dist/main.js`, stopped by
 * a signal, refusing to start in one line. `npm test` builds dist/ before mocha runs.
 */
const startBuilt = (cwd: string, env: Record<string, string>) => startProgram({ cwd, env });

async function cli(cwd: string, env: Record<string, string>, ...args: string[]) {
  const result = await runCommand({ UTILITY_API_DATA_DIR: join(cwd, 'data'), ...env }, args);
  expect(result.status, `${args.join(' ')}: ${result.stderr}`).to.equal(0);
  return result.stdout.trimEnd();
}

/** A user holding `*` and a token of theirs, made by the CLI before the server starts. */
async function userWithToken(cwd: string, env: Record<string, string>): Promise<{ secret: string; tokenId: string }> {
  await cli(cwd, env, 'user', 'create', '--username', 'ops', '--permission', '*');
  const secret = (await cli(cwd, env, 'token', 'create', '--username', 'ops')).split('\n').at(-1)!;
  const [token] = JSON.parse(await cli(cwd, env, 'token', 'list', '--username', 'ops')) as { id: string }[];
  return { secret, tokenId: token!.id };
}

const usesOf = async (cwd: string, env: Record<string, string>, tokenId: string): Promise<number> =>
  (JSON.parse(await cli(cwd, env, 'token', 'info', '--id', tokenId)) as { uses: number }).uses;

/** Whether the process is alive: a zombie nobody has reaped yet (its parent gone first) is not. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
}

/** How a new connection to the port ends: 'connected' or the error code. */
function tryConnect(port: number): Promise<string> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

describe('e2e: starting and stopping like a service', function () {
  this.timeout(120_000);
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'utility-api-lifecycle-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('`npm start` runs the server in the process npm starts: SIGTERM to npm stops it, frees the port, and npm exits 0', async () => {
    const running = await startProgram({
      command: 'npm',
      args: ['start', '--silent'],
      cwd: ROOT,
      env: { UTILITY_API_DATA_DIR: join(cwd, 'data'), GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' },
    });
    expect(running.serverPid).not.to.equal(running.child.pid);
    expect((await fetch(`${running.baseUrl}/api/openapi.json`)).status).to.equal(200);
    // The young generation docs/production.md's Memory section promises, as `ps` shows the server's command.
    expect(readFileSync(`/proc/${running.serverPid}/cmdline`, 'utf8').split('\0')).to.include(
      '--max-semi-space-size=8',
    );
    // The allocator's setting the same section promises, after the operator's own tunables, which are kept.
    // (glibc splits the value at its colons in place as it reads it, so /proc shows a NUL there.)
    expect(readFileSync(`/proc/${running.serverPid}/environ`, 'utf8')).to.match(
      /\0GLIBC_TUNABLES=glibc\.malloc\.arena_max=4[:\0]glibc\.malloc\.mmap_threshold=8192\0/,
    );

    running.child.kill('SIGTERM');
    expect(await running.exited).to.deep.equal({ code: 0, signal: null });
    expect(isRunning(running.serverPid), 'the server outlived npm').to.equal(false);
    expect(await tryConnect(running.port)).to.equal('ECONNREFUSED');
    expect(running.log.map((entry) => entry.msg)).to.include('stopping: finishing the requests received');
  });

  it('`npm start` stops on SIGINT too', async () => {
    const running = await startProgram({
      command: 'npm',
      args: ['start', '--silent'],
      cwd: ROOT,
      env: { UTILITY_API_DATA_DIR: join(cwd, 'data') },
    });
    running.child.kill('SIGINT');
    const npm = await running.exited;
    // npm 11.19 passes the SIGINT on, but when it comes early in npm's life npm is sometimes killed
    // by it as well, before the server has finished; the server stops all the same.
    expect(npm.code === 0 || npm.signal === 'SIGINT', `npm ended with ${npm.code ?? npm.signal}`).to.equal(true);
    await until(() => !isRunning(running.serverPid));
    expect(await tryConnect(running.port)).to.equal('ECONNREFUSED');
  });

  const backends: { name: string; prepare(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> }[] = [
    { name: 'SQLite', prepare: async () => ({ env: {}, drop: async () => {} }) },
    ...(POSTGRES_URL ? [{ name: 'PostgreSQL', prepare: freshPostgres }] : []),
  ];
  for (const backend of backends) {
    it(`SIGTERM under the load of 20 keep-alive clients loses no request the server accepted, writes every use, exits 0 (${backend.name})`, async () => {
      const database = await backend.prepare();
      // Use counts are written only at the stop, so that the count read afterwards is the stop's doing;
      // 8,000 requests of one token would spend the default rate limit.
      const env = { ...database.env, UTILITY_API_TOKEN_USAGE_FLUSH_MS: '3600000', UTILITY_API_RATE_LIMIT: 'off' };
      try {
        const { secret, tokenId } = await userWithToken(cwd, env);
        const running = await startBuilt(cwd, env);
        const outcome = await hammer(running.baseUrl, secret, 20, 400, 1_000, () => running.child.kill('SIGTERM'));

        expect(outcome.failures).to.deep.equal([]);
        expect(outcome.answered).to.be.at.least(1_000);
        expect(await running.exited).to.deep.equal({ code: 0, signal: null });
        expect(running.log.filter((entry) => entry.level >= 50)).to.deep.equal([]);
        expect(await usesOf(cwd, env, tokenId)).to.equal(outcome.answered);
      } finally {
        await database.drop();
      }
    });
  }

  for (const { name, open } of sqlDatabases) {
    it(`exits 1 and logs it when the use counts cannot be written at the stop (${name})`, async () => {
      const database = await open();
      const env = { ...database.env, UTILITY_API_TOKEN_USAGE_FLUSH_MS: '3600000' };
      try {
        const { secret } = await userWithToken(cwd, env);
        const running = await startBuilt(cwd, env);
        expect(
          (await fetch(`${running.baseUrl}/api/crypto/enc?data=x`, { headers: { Authorization: `Bearer ${secret}` } }))
            .status,
        ).to.equal(200);
        await database.db.schema.renameTable('tokens', 'tokens_elsewhere');

        running.child.kill('SIGTERM');
        expect(await running.exited).to.deep.equal({ code: 1, signal: null });
        expect(running.log.filter((entry) => entry.level >= 50).map((entry) => entry.msg)).to.deep.equal([
          'could not write token usage counts at close; they are lost',
        ]);
      } finally {
        await database.drop();
      }
    });
  }

  it('answers a request that comes on a kept-alive connection after the signal, with Connection: close, then exits 0', async () => {
    const { secret } = await userWithToken(cwd, {});
    // A grace far beyond the time this test takes to send its second request.
    const running = await startBuilt(cwd, {
      UTILITY_API_IDLE_GRACE_MS: '30000',
      UTILITY_API_DRAIN_DEADLINE_MS: '60000',
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await getWith(agent, `${running.baseUrl}/api/crypto/enc?data=one`, secret);
    expect(first.headers.connection).to.equal('keep-alive');

    running.child.kill('SIGTERM');
    await until(() => running.log.some((entry) => entry.msg.startsWith('stopping')));
    // No new connection is accepted any more: the second request can only go on the first one.
    expect(await tryConnect(running.port)).to.equal('ECONNREFUSED');
    const second = await getWith(agent, `${running.baseUrl}/api/crypto/enc?data=two`, secret);
    expect(second.status).to.equal(200);
    expect(second.headers.connection).to.equal('close');
    expect(await running.exited).to.deep.equal({ code: 0, signal: null });
    agent.destroy();
  });

  it('closes a kept-alive connection left idle after its grace and exits 0', async () => {
    const running = await startBuilt(cwd, { UTILITY_API_IDLE_GRACE_MS: '100' });
    const socket = connect(running.port, '127.0.0.1');
    const ended = new Promise<void>((done) => socket.once('end', () => done()));
    socket.write('GET /api/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((done) => socket.once('data', done));

    running.child.kill('SIGTERM');
    await ended;
    expect(await running.exited).to.deep.equal({ code: 0, signal: null });
    socket.destroy();
  });

  it('past the drain deadline, exits 1 and logs what it cut', async () => {
    const { secret } = await userWithToken(cwd, {});
    const running = await startBuilt(cwd, { UTILITY_API_DRAIN_DEADLINE_MS: '300' });
    // A body announced and never sent: the request stays in progress.
    const socket = connect(running.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      `POST /api/user/create HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"first`,
    );
    // Written before this round trip began, the partial request has been read by the time it ends.
    expect((await fetch(`${running.baseUrl}/api/openapi.json`)).status).to.equal(200);

    running.child.kill('SIGTERM');
    expect(await running.exited).to.deep.equal({ code: 1, signal: null });
    const cut = running.log.find((entry) => entry.level === 50);
    expect(cut?.msg).to.match(
      /^stop cut at the drain deadline while finishing requests: 1 requests unanswered, \d+ connections open$/,
    );
    expect(cut).to.include({ requests: 1, drainDeadlineMs: 300 });
    socket.destroy();
  });

  describe('a start that cannot go on says why in one line on stderr and exits 1, with no stack trace', () => {
    const refusedStart = (env: Record<string, string>) => {
      const result = spawnSync(process.execPath, [MAIN], {
        cwd,
        env: cleanEnv({ PORT: '0', HOST: '127.0.0.1', ...env }),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status).to.equal(1);
      expect(result.stderr.trimEnd().split('\n')).to.have.length(1);
      expect(result.stderr + result.stdout).not.to.match(/\bat .*:\d+:\d+/);
      return result;
    };

    it('PostgreSQL unreachable', () => {
      const result = refusedStart({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x' });
      expect(result.stderr).to.equal('utility-api: cannot start: connect ECONNREFUSED 127.0.0.1:1\n');
      expect(result.stdout).to.equal('');
    });

    it('a bad setting', () => {
      const result = refusedStart({ UTILITY_API_DRAIN_DEADLINE_MS: 'soon' });
      expect(result.stderr).to.equal(
        'utility-api: Invalid setting shutdown.drainDeadlineMs (from env UTILITY_API_DRAIN_DEADLINE_MS): expected an integer from 100 to 600000, got "soon"\n',
      );
      expect(result.stdout).to.equal('');
    });

    it('the port taken', async () => {
      const squatter = createServer();
      await new Promise<void>((done) => squatter.listen(0, '127.0.0.1', done));
      const { port } = squatter.address() as AddressInfo;
      try {
        const result = refusedStart({ PORT: String(port) });
        expect(result.stderr).to.equal(
          `utility-api: cannot serve: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
        );
        // What happened before it (the database migrated, a key generated) is logged; no error is.
        const entries = result.stdout
          .trimEnd()
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as LogEntry);
        expect(entries.filter((entry) => entry.level >= 50)).to.deep.equal([]);
      } finally {
        squatter.close();
      }
    });
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((done) => setTimeout(done, 10));
}
