import { expect } from 'chai';
import { Agent, fetch } from 'undici';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/platform/persistence/database.js';
import { KnexUserStore } from '../../src/families/users-and-tokens/adapters/knex/knex-user-store.js';
import { ScryptPasswords } from '../../src/families/users-and-tokens/adapters/scrypt-passwords.js';
import { runCommand, TEST_ENCRYPTION_KEY } from '../cli/run-cli.js';
import { readBarcodePng } from '../support/barcode-reader.js';
import { freshPostgres, POSTGRES_URL } from '../support/databases.js';
import { cleanEnv, CLI, MAIN, startProgram, type Running } from '../support/program.js';

/**
 * The built program, started as a process the way the README says, from a folder of its own
 * so that `./data` is that folder's. `npm test` builds dist/ before mocha runs. The CLI's own
 * cases run in process (tests/cli); here the binary is run only where the binary is the point,
 * and the CLI prepares data in process, through the same data folder.
 */
/** The CLI binary run in `cwd`, given `input` on a pipe as its standard input. */
function cli(cwd: string, env: Record<string, string>, ...args: string[]) {
  return cliWithInput(cwd, env, '', ...args);
}

function cliWithInput(cwd: string, env: Record<string, string>, input: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: cleanEnv(env),
    input,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    lastLine: result.stdout.trimEnd().split('\n').at(-1) ?? '',
  };
}

/** The CLI in this process, on the data folder of the program started in `cwd`. */
async function cliInProcess(cwd: string, ...args: string[]) {
  const result = await runCommand({ UTILITY_API_DATA_DIR: join(cwd, 'data') }, args);
  expect(result.status, `${args.join(' ')}: ${result.stderr}`).to.equal(0);
  return result;
}

/**
 * A connection per request: between two requests the test may wait on a CLI process for longer
 * than the server keeps an idle connection open, and a pooled one could be closed as it is reused.
 */
const ONE_REQUEST_PER_CONNECTION = new Agent({ pipelining: 0 });
const get = (running: Running, path: string, token: string) =>
  fetch(running.baseUrl + path, {
    headers: { Authorization: `Bearer ${token}` },
    dispatcher: ONE_REQUEST_PER_CONNECTION,
  });

/** The status `path` answers once it answers `expected`, asking every 20 ms for at most `withinMs`. */
async function statusWithin(
  running: Running,
  path: string,
  token: string,
  expected: number,
  withinMs: number,
): Promise<number> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const response = await get(running, path, token);
    await response.arrayBuffer();
    if (response.status === expected || Date.now() > deadline) return response.status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('e2e: the program as a user runs it', function () {
  this.timeout(60_000);
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'utility-api-e2e-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('serves on its embedded defaults; the CLI creates a user and token; crypto round-trips; a block and an unblock from the CLI reach the server within 1 s', async () => {
    // Verified tokens cached for a minute: only the access-change feed can tell the server in time.
    const env = { UTILITY_API_TOKEN_CACHE_TTL_MS: '60000' };
    const server = await startProgram({ cwd, env });
    try {
      expect(server.lines.join('\n')).to.include('generated one into the data folder');
      expect(readFileSync(join(cwd, 'data/encryption.key'), 'utf8').trim()).to.have.length(44);

      const created = cli(cwd, env, 'user', 'create', '--username', 'alice', '--permission', 'Cryptography::*');
      expect(created.status, created.stderr).to.equal(0);
      const issued = cli(cwd, env, 'token', 'create', '--username', 'alice');
      expect(issued.status, issued.stderr).to.equal(0);
      const token = issued.lastLine;
      expect(token).to.match(/^uapi_[0-9A-Za-z]{49}$/);
      expect(server.lines.join('\n')).not.to.include(token);

      const encrypted = await get(server, '/api/crypto/enc?data=hello%20%F0%9F%8C%8D', token);
      expect(encrypted.status).to.equal(200);
      const ciphertext = await encrypted.text();
      const decrypted = await get(server, `/api/crypto/dec?data=${ciphertext}`, token);
      expect(await decrypted.text()).to.equal('hello 🌍');

      expect(cli(cwd, env, 'user', 'block', '--username', 'alice').status).to.equal(0);
      expect(await statusWithin(server, '/api/crypto/enc?data=x', token, 403, 1000)).to.equal(403);
      const refused = await get(server, '/api/crypto/enc?data=x', token);
      expect(((await refused.json()) as { code: number }).code).to.equal(2);
      expect(cli(cwd, env, 'user', 'unblock', '--username', 'alice').status).to.equal(0);
      expect(await statusWithin(server, '/api/crypto/enc?data=x', token, 200, 1000)).to.equal(200);
    } finally {
      expect(await server.stop()).to.equal(0);
    }
  });

  it("keeps its generated key, its users and its tokens' use counts across a restart; answers every offline family from the data its npm packages bring, found from dist/", async () => {
    const first = await startProgram({ cwd, env: {} });
    await cliInProcess(cwd, 'user', 'create', '--username', 'bob', '--permission', '*');
    const issued = await cliInProcess(cwd, 'token', 'create', '--username', 'bob');
    const token = issued.lastLine;
    const ciphertext = await (await get(first, '/api/crypto/enc?data=persisted', token)).text();
    expect(await first.stop()).to.equal(0);
    // Uses are counted in memory and written at the clean stop.
    const id = /^Token (\S+) for /.exec(issued.stdout)![1]!;
    expect(JSON.parse((await cliInProcess(cwd, 'token', 'info', '--id', id)).stdout)).to.include({ uses: 1 });

    const second = await startProgram({ cwd, env: {} });
    try {
      expect(second.lines.join('\n')).not.to.include('generated one');
      const decrypted = await get(second, `/api/crypto/dec?data=${ciphertext}`, token);
      expect(decrypted.status).to.equal(200);
      expect(await decrypted.text()).to.equal('persisted');

      const png = await get(second, '/api/barcode/gen/qrcode?content=e2e', token);
      expect(png.status).to.equal(200);
      expect(png.headers.get('content-type')).to.equal('image/png');
      expect(
        Buffer.from(await png.arrayBuffer())
          .subarray(1, 4)
          .toString('latin1'),
      ).to.equal('PNG');
      // bwip-js draws in worker threads, whose entry (draw-worker.js) the build copies to dist/.
      const aztec = await get(second, '/api/barcode/gen/azteccode?content=drawn%20by%20a%20worker', token);
      expect(aztec.status).to.equal(200);
      expect(aztec.headers.get('content-type')).to.equal('image/png');
      expect(readBarcodePng(Buffer.from(await aztec.arrayBuffer()), 'azteccode')).to.equal('drawn by a worker');

      const phone = await get(second, '/api/phone/details?number=%2B33%201%2042%2068%2053%2000', token);
      expect(phone.status).to.equal(200);
      expect(await phone.json()).to.include({ valid: true, country: 'FR', type: 'FIXED_LINE' });

      const places = await get(second, '/api/location/coords?address=Tokyo', token);
      expect(places.status).to.equal(200);
      expect(((await places.json()) as { places: { name: string; country: string }[] }).places[0]).to.include({
        name: 'Tokyo',
        country: 'JP',
      });

      const antonyms = await get(second, '/api/dictionary/ant?word=hot', token);
      expect(antonyms.status).to.equal(200);
      expect(((await antonyms.json()) as { antonyms: string[] }).antonyms).to.include('cold');
    } finally {
      await second.stop();
    }
  });

  it('the CLI binary refuses with one line on stderr and exit code 1', () => {
    // With a key of its own: on a fresh data folder the CLI would first log that it generated one.
    const refused = cli(
      cwd,
      { UTILITY_API_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY },
      'token',
      'create',
      '--username',
      'nobody',
    );
    expect(refused).to.include({
      status: 1,
      stdout: '',
      stderr: 'utility-api: Unable to locate requested user: No user nobody\n',
    });
  });

  it('the CLI binary cannot reach its database: one line on stderr and exit code 1', () => {
    const refused = cli(cwd, { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/utility' }, 'user', 'list');
    expect(refused.status).to.equal(1);
    expect(refused.stderr).to.equal('utility-api: cannot start: connect ECONNREFUSED 127.0.0.1:1\n');
  });

  it('the CLI binary takes a password through a pipe on its standard input', async () => {
    const password = 'piped, never an argument';
    const created = cliWithInput(cwd, {}, `${password}\n`, 'user', 'create', '--username', 'pia', '--password-stdin');
    expect(created.status, created.stderr).to.equal(0);
    expect(created.stdout + created.stderr).not.to.include(password);

    const db = openDatabase({ client: 'sqlite', filename: join(cwd, 'data/utility-api.sqlite') });
    try {
      const stored = await new KnexUserStore(db).findByUsername('pia');
      expect(await new ScryptPasswords().verify(password, stored!.passwordHash!)).to.equal(true);
    } finally {
      await db.destroy();
    }
  });

  it('refuses to start in production without a key, with one clear line', () => {
    const result = spawnSync(process.execPath, [MAIN], {
      cwd,
      env: cleanEnv({ NODE_ENV: 'production', PORT: '0' }),
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.include('UTILITY_API_ENCRYPTION_KEY');
    expect(result.stdout).to.equal('');
  });

  (POSTGRES_URL ? it : it.skip)('runs on PostgreSQL given DATABASE_URL', async () => {
    const database = await freshPostgres();
    const env = { ...database.env, UTILITY_API_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
    try {
      const server = await startProgram({ cwd, env });
      try {
        expect(cli(cwd, env, 'user', 'create', '--username', 'pg', '--permission', '*').status).to.equal(0);
        const token = (await runCommand(database.env, ['token', 'create', '--username', 'pg'])).lastLine;
        const ciphertext = await (await get(server, '/api/crypto/enc?data=on%20postgres', token)).text();
        expect(await (await get(server, `/api/crypto/dec?data=${ciphertext}`, token)).text()).to.equal('on postgres');
        expect(await database.db('users').count({ n: '*' })).to.deep.equal([{ n: '1' }]);
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
    }
  });
});
