import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { freshPostgres, POSTGRES_URL } from '../support/databases.js';

/**
 * The built program, started as a process the way the README says, from a folder of its own
 * so that `./data` is that folder's. `npm test` builds dist/ before mocha runs.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/main.js');
const CLI = join(ROOT, 'bin/utility-api.js');

interface Running {
  readonly baseUrl: string;
  readonly logLines: string[];
  stop(): Promise<number | null>;
}

/** Environment without anything of ours the developer may have set in their shell. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(UTILITY_API_|DATABASE_URL$|PORT$|HOST$|LOG_LEVEL$|NODE_ENV$)/.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

function startProgram(cwd: string, env: Record<string, string>): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, [MAIN], { cwd, env: cleanEnv({ PORT: '0', HOST: '127.0.0.1', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  const logLines: string[] = [];
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 15 s:\n${logLines.join('\n')}`)), 15_000);
    createInterface({ input: child.stderr! }).on('line', (line) => logLines.push(line));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      logLines.push(line);
      const entry = JSON.parse(line) as { msg: string; port?: number };
      if (entry.msg.startsWith('listening on')) {
        clearTimeout(timer);
        resolveStart({
          baseUrl: `http://127.0.0.1:${entry.port}`,
          logLines,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${logLines.join('\n')}`));
    });
  });
}

function cli(cwd: string, env: Record<string, string>, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, env: cleanEnv(env), encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, lastLine: result.stdout.trimEnd().split('\n').at(-1) ?? '' };
}

const get = (running: Running, path: string, token: string) => fetch(running.baseUrl + path, { headers: { Authorization: `Bearer ${token}` } });

/** Starts the program in `cwd` and checks that it answers the token 403 with `code` on the encrypt endpoint. */
async function expectRefusedByFreshServer(cwd: string, token: string, code: number): Promise<void> {
  const server = await startProgram(cwd, {});
  try {
    const response = await get(server, '/api/crypto/enc?data=x', token);
    expect(response.status).to.equal(403);
    expect(((await response.json()) as { code: number }).code).to.equal(code);
  } finally {
    await server.stop();
  }
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  expect.fail(`never happened: ${what}`);
}

describe('e2e: the program as a user runs it', function () {
  this.timeout(60_000);
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'utility-api-e2e-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('serves on its embedded defaults; the CLI creates a user and token; crypto round-trips; block and unblock work from the CLI', async () => {
    // A short cache TTL so that a block made by another process shows within the test.
    const env = { UTILITY_API_TOKEN_CACHE_TTL_MS: '300' };
    const server = await startProgram(cwd, env);
    try {
      expect(server.logLines.join('\n')).to.include('generated one into the data folder');
      expect(readFileSync(join(cwd, 'data/encryption.key'), 'utf8').trim()).to.have.length(44);

      const created = cli(cwd, env, 'user', 'create', '--username', 'alice', '--permission', 'Cryptography::*');
      expect(created.status, created.stderr).to.equal(0);
      const issued = cli(cwd, env, 'token', 'create', '--username', 'alice');
      expect(issued.status, issued.stderr).to.equal(0);
      const token = issued.lastLine;
      expect(token).to.match(/^uapi_[A-Za-z0-9_-]{43}$/);
      expect(server.logLines.join('\n')).not.to.include(token);

      const encrypted = await get(server, '/api/crypto/enc?data=hello%20%F0%9F%8C%8D', token);
      expect(encrypted.status).to.equal(200);
      const ciphertext = await encrypted.text();
      const decrypted = await get(server, `/api/crypto/dec?data=${ciphertext}`, token);
      expect(await decrypted.text()).to.equal('hello 🌍');

      expect(cli(cwd, env, 'user', 'block', '--username', 'alice').status).to.equal(0);
      await eventually(async () => (await get(server, '/api/crypto/enc?data=x', token)).status === 403, 'blocked user refused');
      const refused = (await (await get(server, '/api/crypto/enc?data=x', token)).json()) as { code: number };
      expect(refused.code).to.equal(2);
      expect(cli(cwd, env, 'user', 'unblock', '--username', 'alice').status).to.equal(0);
      await eventually(async () => (await get(server, '/api/crypto/enc?data=x', token)).status === 200, 'unblocked user served');
    } finally {
      expect(await server.stop()).to.equal(0);
    }
  });

  it('answers every offline family from the data its npm packages bring, found from dist/', async () => {
    const families = ['Barcode::*', 'Phone::*', 'Location::*', 'Dictionary::*'];
    expect(cli(cwd, {}, 'user', 'create', '--username', 'olga', ...families.flatMap((family) => ['--permission', family])).status).to.equal(0);
    const token = cli(cwd, {}, 'token', 'create', '--username', 'olga').lastLine;
    const server = await startProgram(cwd, {});
    try {
      const png = await get(server, '/api/barcode/gen/qrcode?content=e2e', token);
      expect(png.status).to.equal(200);
      expect(png.headers.get('content-type')).to.equal('image/png');
      expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString('latin1')).to.equal('PNG');

      const phone = await get(server, '/api/phone/details?number=%2B33%201%2042%2068%2053%2000', token);
      expect(phone.status).to.equal(200);
      expect(await phone.json()).to.include({ valid: true, country: 'FR', type: 'FIXED_LINE' });

      const places = await get(server, '/api/location/coords?address=Tokyo', token);
      expect(places.status).to.equal(200);
      expect(((await places.json()) as { places: { name: string; country: string }[] }).places[0]).to.include({ name: 'Tokyo', country: 'JP' });

      const antonyms = await get(server, '/api/dictionary/ant?word=hot', token);
      expect(antonyms.status).to.equal(200);
      expect(((await antonyms.json()) as { antonyms: string[] }).antonyms).to.include('cold');
    } finally {
      await server.stop();
    }
  });

  it('keeps its generated key and its users across a restart', async () => {
    const first = await startProgram(cwd, {});
    cli(cwd, {}, 'user', 'create', '--username', 'bob', '--permission', '*');
    const token = cli(cwd, {}, 'token', 'create', '--username', 'bob').lastLine;
    const ciphertext = await (await get(first, '/api/crypto/enc?data=persisted', token)).text();
    await first.stop();

    const second = await startProgram(cwd, {});
    try {
      expect(second.logLines.join('\n')).not.to.include('generated one');
      const decrypted = await get(second, `/api/crypto/dec?data=${ciphertext}`, token);
      expect(decrypted.status).to.equal(200);
      expect(await decrypted.text()).to.equal('persisted');
    } finally {
      await second.stop();
    }
  });

  it('issues narrowed and expiring tokens from the CLI', async () => {
    cli(cwd, {}, 'user', 'create', '--username', 'carol', '--permission', 'Cryptography::*');
    const narrowed = cli(cwd, {}, 'token', 'create', '--username', 'carol', '--permission', 'Cryptography::Decrypt', '--expires-in', '30d');
    expect(narrowed.status, narrowed.stderr).to.equal(0);
    expect(narrowed.stdout).to.include('Cryptography::Decrypt');
    const expires = /expires:\s+(\S+)/.exec(narrowed.stdout)![1]!;
    expect(Math.abs(Date.parse(expires) - Date.now() - 30 * 86_400_000)).to.be.below(60_000);
    await expectRefusedByFreshServer(cwd, narrowed.lastLine, 1);
  });

  it('refuses with one clear line and exit code 1: unknown user, escalation, bad duration, unknown permission', () => {
    cli(cwd, {}, 'user', 'create', '--username', 'dave', '--permission', 'Cryptography::Encrypt');
    const cases = [
      ['token', 'create', '--username', 'nobody'],
      ['token', 'create', '--username', 'dave', '--permission', 'Cryptography::*'],
      ['token', 'create', '--username', 'dave', '--expires-in', 'soon'],
      ['user', 'create', '--username', 'erin', '--permission', 'Cryptograpy::*'],
      ['user', 'block', '--username', 'nobody'],
      ['user', 'create', '--username', 'dave'],
    ];
    for (const args of cases) {
      const result = cli(cwd, {}, ...args);
      expect(result.status, args.join(' ')).to.equal(1);
      expect(result.stderr.trim().split('\n'), args.join(' ')).to.have.length(1);
      expect(result.stderr).to.match(/^utility-api: /);
      expect(result.stderr).not.to.match(/\bat .*\.js:\d+/);
    }
    expect(cli(cwd, {}, 'token', 'create', '--username', 'nobody').stderr.trim()).to.equal('utility-api: Unable to locate requested user: No user nobody');
  });

  it('a CLI token for a blocked user creates no access', async () => {
    cli(cwd, {}, 'user', 'create', '--username', 'frank', '--permission', '*');
    cli(cwd, {}, 'user', 'block', '--username', 'frank');
    const issued = cli(cwd, {}, 'token', 'create', '--username', 'frank');
    expect(issued.stderr).to.include('blocked');
    await expectRefusedByFreshServer(cwd, issued.lastLine, 2);
  });

  it('manages users and tokens from the CLI with the same use cases: get, list, update, token info/list/revoke, delete', async () => {
    expect(cli(cwd, {}, 'user', 'create', '--username', 'grace', '--first-name', 'Grace', '--last-name', 'Hopper', '--email', 'Grace@Example.com').status).to.equal(0);
    const shown = JSON.parse(cli(cwd, {}, 'user', 'get', '--username', 'grace').stdout) as Record<string, unknown>;
    expect(shown).to.include({ username: 'grace', fullName: 'Grace Hopper', email: 'grace@example.com', blocked: false });
    expect(shown).not.to.have.property('passwordHash');
    expect(cli(cwd, {}, 'user', 'list').stdout).to.include('grace (uid');

    const updated = cli(cwd, { UTILITY_API_NEW_PASSWORD: 'a long enough secret' }, 'user', 'update', '--username', 'grace', '--permission', 'Cryptography::Encrypt', '--display-name', 'Amazing Grace');
    expect(updated.status, updated.stderr).to.equal(0);
    expect(JSON.parse(cli(cwd, {}, 'user', 'get', '--username', 'grace').stdout)).to.include({ displayname: 'Amazing Grace' });

    const secret = cli(cwd, {}, 'token', 'create', '--username', 'grace').lastLine;
    const list = JSON.parse(cli(cwd, {}, 'token', 'list', '--username', 'grace').stdout) as { id: string; permissions: string[] }[];
    expect(list).to.have.length(1);
    expect(list[0]!.permissions).to.deep.equal(['Cryptography::Encrypt']);
    const info = JSON.parse(cli(cwd, {}, 'token', 'info', '--id', list[0]!.id).stdout) as { username: string };
    expect(info.username).to.equal('grace');

    const server = await startProgram(cwd, {});
    try {
      for (let i = 0; i < 2; i++) expect((await get(server, '/api/crypto/enc?data=x', secret)).status).to.equal(200);
    } finally {
      expect(await server.stop()).to.equal(0);
    }
    // Uses are counted in memory and written at the clean stop.
    expect(JSON.parse(cli(cwd, {}, 'token', 'info', '--id', list[0]!.id).stdout)).to.include({ uses: 2 });
    expect(cli(cwd, {}, 'token', 'revoke', '--id', list[0]!.id).status).to.equal(0);
    const restarted = await startProgram(cwd, {});
    try {
      expect((await get(restarted, '/api/crypto/enc?data=x', secret)).status).to.equal(401);
    } finally {
      await restarted.stop();
    }
    expect(cli(cwd, {}, 'token', 'info', '--id', list[0]!.id).status).to.equal(1);

    const second = cli(cwd, {}, 'token', 'create', '--username', 'grace');
    expect(cli(cwd, {}, 'user', 'delete', '--username', 'grace').status).to.equal(0);
    expect(cli(cwd, {}, 'user', 'get', '--username', 'grace').status).to.equal(1);
    expect(cli(cwd, {}, 'token', 'info', '--id', /Token (\S+) for/.exec(second.stdout)![1]!).stderr).to.include('Unable to locate requested token');
  });

  it('migrate creates the database before the server has ever run', () => {
    const result = cli(cwd, {}, 'migrate');
    expect(result.status, result.stderr).to.equal(0);
    expect(readFileSync(join(cwd, 'data/utility-api.sqlite')).subarray(0, 15).toString()).to.equal('SQLite format 3');
  });

  it('refuses to start in production without a key, with one clear line', () => {
    const result = spawnSync(process.execPath, [MAIN], { cwd, env: cleanEnv({ NODE_ENV: 'production', PORT: '0' }), encoding: 'utf8', timeout: 15_000 });
    expect(result.status).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.include('UTILITY_API_ENCRYPTION_KEY');
    expect(result.stdout).to.equal('');
  });

  it('refuses a bad setting with one line naming it', () => {
    const result = spawnSync(process.execPath, [MAIN], { cwd, env: cleanEnv({ PORT: 'eighty' }), encoding: 'utf8', timeout: 15_000 });
    expect(result.status).to.equal(1);
    expect(result.stderr.trim()).to.equal('utility-api: Invalid setting port (from env PORT): expected an integer from 0 to 65535, got "eighty"');
  });

  (POSTGRES_URL ? it : it.skip)('runs on PostgreSQL given DATABASE_URL', async () => {
    const database = await freshPostgres();
    const env = { ...database.env, UTILITY_API_ENCRYPTION_KEY: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=' };
    try {
      const server = await startProgram(cwd, env);
      try {
        expect(cli(cwd, env, 'user', 'create', '--username', 'pg', '--permission', '*').status).to.equal(0);
        const token = cli(cwd, env, 'token', 'create', '--username', 'pg').lastLine;
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
