import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';
import { expectError, startServer } from '../support/http-server.js';
import { cliOn, type CliResult } from './run-cli.js';

/** The server over the same database, asked once with `token`: what a client of the running service would see. */
async function encryptWith(env: Record<string, string>, token: string): Promise<Response> {
  const server = await startServer({ env });
  try {
    return await server.get('/api/crypto/enc?data=x', { authorization: `Bearer ${token}` });
  } finally {
    await server.close();
  }
}

const idOf = (issued: CliResult): string => /^Token (\S+) for /.exec(issued.stdout)![1]!;

for (const backend of sqlDatabases) {
  describe(`cli: users and tokens, in process (${backend.name})`, () => {
    let database: TestDatabase;
    let cli: ReturnType<typeof cliOn>;
    beforeEach(async () => {
      database = await backend.open();
      cli = cliOn(database.env);
    });
    afterEach(() => database.drop());

    it('creates a user and issues a token whose secret, alone on the last line, the server accepts', async () => {
      const created = await cli('user', 'create', '--username', 'alice', '--permission', 'Cryptography::*');
      expect(created).to.include({ status: 0, stderr: '' });
      expect(created.stdout).to.match(/^Created user alice \(uid [A-Za-z0-9_-]{28}\) permissions: Cryptography::\*\n$/);

      const issued = await cli('token', 'create', '--username', 'alice');
      expect(issued).to.include({ status: 0, stderr: '' });
      expect(issued.stdout).to.include('permissions: Cryptography::*').and.to.include('expires:     never');
      expect(issued.lastLine).to.match(/^uapi_[0-9A-Za-z]{49}$/);
      expect((await encryptWith(database.env, issued.lastLine)).status).to.equal(200);
    });

    it('issues narrowed and expiring tokens', async () => {
      await cli('user', 'create', '--username', 'carol', '--permission', 'Cryptography::*');
      const before = Date.now();
      const narrowed = await cli(
        'token',
        'create',
        '--username',
        'carol',
        '--permission',
        'Cryptography::Decrypt',
        '--expires-in',
        '30d',
      );
      const after = Date.now();
      expect(narrowed.status, narrowed.stderr).to.equal(0);
      expect(narrowed.stdout).to.include('permissions: Cryptography::Decrypt');
      const expires = Date.parse(/expires:\s+(\S+)/.exec(narrowed.stdout)![1]!);
      const thirtyDays = 30 * 86_400_000;
      // Thirty days from the moment the command ran, however long it took; give or take a minute,
      // because this VM's wall clock is sometimes stepped while a test runs.
      expect(expires).to.be.within(before + thirtyDays - 60_000, after + thirtyDays + 60_000);
      await expectError(await encryptWith(database.env, narrowed.lastLine), 403, 1);
    });

    it('gives a token a rate limit of its own with --rate-limit, which the server counts it under', async () => {
      await cli('user', 'create', '--username', 'dave', '--permission', 'Cryptography::*');
      const issued = await cli('token', 'create', '--username', 'dave', '--rate-limit', '1/60');
      expect(issued.status, issued.stderr).to.equal(0);
      expect(issued.stdout).to.include('rate limit:  1 requests per 60 s');
      expect(JSON.parse((await cli('token', 'info', '--id', idOf(issued))).stdout)).to.deep.include({
        rateLimit: { requests: 1, perSeconds: 60 },
      });
      const server = await startServer({ env: database.env });
      try {
        const first = await server.get('/api/crypto/enc?data=x', { authorization: `Bearer ${issued.lastLine}` });
        expect(first.headers.get('ratelimit-policy')).to.equal('"token";q=1;w=60');
        await expectError(
          await server.get('/api/crypto/enc?data=x', { authorization: `Bearer ${issued.lastLine}` }),
          429,
          25,
        );
      } finally {
        await server.close();
      }
      expect((await cli('token', 'create', '--username', 'dave')).stdout).to.include(
        "rate limit:  the installation's policy",
      );
      const refused = await cli('token', 'create', '--username', 'dave', '--rate-limit', '10 per minute');
      expect(refused).to.include({
        status: 1,
        stderr:
          'utility-api: --rate-limit must look like 100/10 (requests/seconds: at most 1000000000 requests, 86400 s), got "10 per minute"\n',
      });
    });

    it('warns that a token for a blocked user is refused, and the server refuses it until the user is unblocked', async () => {
      await cli('user', 'create', '--username', 'frank', '--permission', '*');
      const blocked = await cli('user', 'block', '--username', 'frank');
      expect(blocked.status).to.equal(0);
      expect(blocked.stdout).to.include('Blocked user frank').and.to.include('[blocked]');
      const issued = await cli('token', 'create', '--username', 'frank');
      expect(issued.status).to.equal(0);
      expect(issued.stderr).to.equal(
        'warning: frank is blocked; this token will be refused until the user is unblocked\n',
      );
      await expectError(await encryptWith(database.env, issued.lastLine), 403, 2);

      const unblocked = await cli('user', 'unblock', '--username', 'frank');
      expect(unblocked.stdout).to.include('Unblocked user frank').and.not.to.include('[blocked]');
      expect((await encryptWith(database.env, issued.lastLine)).status).to.equal(200);
    });

    it('gets, lists and updates users, and shows, lists and revokes tokens, with the same use cases as the server', async () => {
      const created = await cli(
        'user',
        'create',
        '--username',
        'grace',
        '--first-name',
        'Grace',
        '--last-name',
        'Hopper',
        '--email',
        'Grace@Example.com',
      );
      expect(created.status, created.stderr).to.equal(0);
      const shown = JSON.parse((await cli('user', 'get', '--username', 'grace')).stdout) as Record<string, unknown>;
      expect(shown).to.include({
        username: 'grace',
        fullName: 'Grace Hopper',
        email: 'grace@example.com',
        blocked: false,
      });
      expect(shown).not.to.have.property('passwordHash');
      await cli('user', 'create', '--username', 'henry');
      expect((await cli('user', 'list')).stdout).to.match(
        /^henry \(uid \S+\) permissions: \(none\)\ngrace \(uid \S+\) permissions: \(none\)\n$/,
      );
      expect((await cli('user', 'list', '--query', 'HOPP')).stdout).to.match(/^grace \(uid \S+\)[^\n]*\n$/);
      expect((await cli('user', 'list', '--blocked', 'true')).stdout).to.equal('');
      expect((await cli('user', 'list', '--permission', 'Cryptography::Encrypt')).stdout).to.equal('');
      const firstPage = await cli('user', 'list', '--limit', '1');
      const [firstShown, next] = firstPage.stdout.trimEnd().split('\n');
      expect(firstShown).to.match(/^henry /);
      const cursor = /^next page: --cursor (\S+)$/.exec(next ?? '')?.[1];
      expect(cursor, firstPage.stdout).to.be.a('string');
      expect((await cli('user', 'list', '--limit', '1', '--cursor', cursor!)).stdout).to.match(/^grace [^\n]*\n$/);
      expect((await cli('user', 'list', '--limit', '0')).stderr).to.include('Invalid --limit');
      expect((await cli('user', 'list', '--limit', 'many')).stderr).to.include('Invalid --limit');
      expect((await cli('user', 'list', '--cursor', `${cursor!}x`)).stderr).to.include('Invalid --cursor');
      expect((await cli('user', 'list', '--permission', 'Nope::Nothing')).stderr).to.include('Invalid --permission');
      expect(
        (await cli('user', 'update', '--username', 'grace', '--first-name', 'Gracé', '--last-name', 'Murray')).status,
      ).to.equal(0);
      expect(JSON.parse((await cli('user', 'get', '--username', 'grace')).stdout)).to.include({
        fullName: 'Gracé Murray',
      });
      expect((await cli('user', 'list', '--query', 'grace m')).stdout).to.match(/^grace [^\n]*\n$/);

      const updated = await cli(
        'user',
        'update',
        '--username',
        'grace',
        '--permission',
        'Cryptography::Encrypt',
        '--display-name',
        'Amazing Grace',
      );
      expect(updated.status, updated.stderr).to.equal(0);
      expect(updated.stdout).to.include('permissions: Cryptography::Encrypt');
      expect(JSON.parse((await cli('user', 'get', '--username', 'grace')).stdout)).to.include({
        displayname: 'Amazing Grace',
      });

      const secret = (await cli('token', 'create', '--username', 'grace', '--name', 'laptop')).lastLine;
      const list = JSON.parse((await cli('token', 'list', '--username', 'grace')).stdout) as {
        id: string;
        name: string;
        permissions: string[];
      }[];
      expect(list).to.have.length(1);
      expect(list[0]).to.include({ name: 'laptop' });
      expect(list[0]!.permissions).to.deep.equal(['Cryptography::Encrypt']);
      const id = list[0]!.id;
      expect(JSON.parse((await cli('token', 'info', '--id', id)).stdout)).to.include({ username: 'grace', uses: 0 });

      const server = await startServer({ env: database.env });
      try {
        for (let i = 0; i < 2; i++)
          expect((await server.get('/api/crypto/enc?data=x', { authorization: `Bearer ${secret}` })).status).to.equal(
            200,
          );
      } finally {
        await server.close();
      }
      // Uses are counted in memory and written when the server closes cleanly.
      expect(JSON.parse((await cli('token', 'info', '--id', id)).stdout)).to.include({ uses: 2 });

      const disabled = await cli('token', 'disable', '--id', id);
      expect(disabled.stdout).to.match(new RegExp(`^Disabled token ${id} \\(uapi_\\S+…\\) of grace\n$`));
      await expectError(await encryptWith(database.env, secret), 403, 5);
      expect((await cli('token', 'enable', '--id', id)).stdout).to.match(
        /^Enabled token \S+ \(uapi_\S+…\) of grace\n$/,
      );
      expect((await encryptWith(database.env, secret)).status).to.equal(200);
      expect(await cli('token', 'disable', '--id', '00000000-0000-4000-8000-000000000000')).to.include({
        status: 1,
        stderr: 'utility-api: Unable to locate requested token: No token 00000000-0000-4000-8000-000000000000\n',
      });

      const revoked = await cli('token', 'revoke', '--id', id);
      expect(revoked.status).to.equal(0);
      expect(revoked.stdout).to.match(/^Revoked token \S+ \(uapi_\S+…\)\n$/);
      await expectError(await encryptWith(database.env, secret), 401, 4);
      const gone = await cli('token', 'info', '--id', id);
      expect(gone).to.include({
        status: 1,
        stdout: '',
        stderr: `utility-api: Unable to locate requested token: No token ${id}\n`,
      });
    });

    it('rotates a token: the new secret is alone on the last line, the old one stops after the grace', async () => {
      await cli('user', 'create', '--username', 'rita', '--permission', 'Cryptography::*');
      const issued = await cli('token', 'create', '--username', 'rita');
      const id = idOf(issued);
      expect(JSON.parse((await cli('token', 'info', '--id', id)).stdout)).to.include({ origin: 'cli' });
      const rotated = await cli('token', 'rotate', '--id', id, '--grace-seconds', '0');
      expect(rotated).to.include({ status: 0, stderr: '' });
      expect(rotated.stdout).to.match(new RegExp(`^Token \\S+ replaces ${id}, which stops at \\S+Z\n`));
      expect(rotated.lastLine).to.match(/^uapi_[0-9A-Za-z]{49}$/);
      await expectError(await encryptWith(database.env, issued.lastLine), 401, 4);
      expect((await encryptWith(database.env, rotated.lastLine)).status).to.equal(200);
      expect(await cli('token', 'rotate', '--id', id)).to.include({ status: 1 });
      for (const grace of ['-1', '604801', '1.5', 'soon'])
        expect(await cli('token', 'rotate', '--id', id, '--grace-seconds', grace)).to.include({
          status: 1,
          stderr: `utility-api: --grace-seconds must be a whole number from 0 to 604800, got "${grace}"\n`,
        });
    });

    it('deletes a user and their tokens', async () => {
      await cli('user', 'create', '--username', 'ivan', '--permission', 'Cryptography::*');
      const issued = await cli('token', 'create', '--username', 'ivan');
      const deleted = await cli('user', 'delete', '--username', 'ivan');
      expect(deleted.status).to.equal(0);
      expect(deleted.stdout).to.match(/^Deleted user ivan \(uid \S+\) and their tokens\n$/);
      expect((await cli('user', 'get', '--username', 'ivan')).stderr).to.equal(
        'utility-api: Unable to locate requested user: No user ivan\n',
      );
      expect((await cli('token', 'info', '--id', idOf(issued))).stderr).to.include('Unable to locate requested token');
      await expectError(await encryptWith(database.env, issued.lastLine), 401, 4);
    });

    it('removes every permission with --no-permissions', async () => {
      await cli('user', 'create', '--username', 'judy', '--permission', 'Cryptography::*', '--permission', 'Phone::*');
      const updated = await cli('user', 'update', '--username', 'judy', '--no-permissions');
      expect(updated.status, updated.stderr).to.equal(0);
      expect(JSON.parse((await cli('user', 'get', '--username', 'judy')).stdout)).to.deep.include({ permissions: [] });
    });
  });
}

describe('cli: migrate, in process', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'utility-api-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the SQLite database in the data folder before the server has ever run', async () => {
    const cli = cliOn({ UTILITY_API_DATA_DIR: join(dir, 'data') });
    const migrated = await cli('migrate');
    expect(migrated).to.include({ status: 0, stdout: 'Database is up to date (sqlite).\n', stderr: '' });
    expect(readFileSync(join(dir, 'data/utility-api.sqlite')).subarray(0, 15).toString()).to.equal('SQLite format 3');
    expect(await cli('user', 'list')).to.include({ status: 0, stdout: '' });
  });
});
