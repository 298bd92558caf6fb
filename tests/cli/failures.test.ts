import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detailsOf } from '../../src/domain/errors.js';
import { checkEmail } from '../../src/families/users-and-tokens/domain/users/user-rules.js';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { cliOn, runCommand, type CliResult } from './run-cli.js';

/** One line on stderr after the program's name, nothing on stdout, exit code 1: all a user needs. */
function expectOneLineFailure(result: CliResult, what: string): string {
  expect(result.status, what).to.equal(1);
  expect(result.stdout, what).to.equal('');
  expect(result.stderr, what).to.match(/^utility-api: [^\n]+\n$/);
  expect(result.stderr, what).not.to.match(/\bat .*:\d+/);
  return result.stderr.trimEnd();
}

describe('cli: failures, in process', () => {
  let database: TestDatabase;
  let cli: ReturnType<typeof cliOn>;
  beforeEach(async () => {
    database = await freshSqlite();
    cli = cliOn(database.env);
  });
  afterEach(() => database.drop());

  it('refuses with one line and exit code 1, changing nothing: unknown user, escalation, bad duration, unknown permission, taken name', async () => {
    await cli('user', 'create', '--username', 'dave', '--permission', 'Cryptography::Encrypt');
    const refusals: [args: string[], line: string | RegExp][] = [
      [['token', 'create', '--username', 'nobody'], 'utility-api: Unable to locate requested user: No user nobody'],
      [
        ['token', 'create', '--username', 'dave', '--permission', 'Cryptography::*'],
        'utility-api: You are not authorized to access this resource: Missing permission Cryptography::*',
      ],
      [
        ['token', 'create', '--username', 'dave', '--expires-in', 'soon'],
        'utility-api: --expires-in must look like 90s, 15m, 12h, 30d, 2w or 1y (at most 10 years), got "soon"',
      ],
      [
        ['user', 'create', '--username', 'erin', '--permission', 'Cryptograpy::*'],
        'utility-api: Invalid --permission: Unknown permission(s): Cryptograpy::*',
      ],
      [
        ['user', 'create', '--username', 'no spaces'],
        /^utility-api: Invalid --username: username must be 2-32 characters/,
      ],
      [['token', 'create', '--username', 'dave', '--name', '\u0007bell'], /^utility-api: Invalid --name: /],
      [
        ['user', 'create', '--username', 'erin', '--email', 'not-an-email'],
        `utility-api: Invalid --email: ${detailsOf(checkEmail('not-an-email')!)}`,
      ],
      [['user', 'block', '--username', 'nobody'], 'utility-api: Unable to locate requested user: No user nobody'],
      [['user', 'create', '--username', 'dave'], /^utility-api: The resource already exists: .*username/],
    ];
    for (const [args, line] of refusals) {
      const said = expectOneLineFailure(await cli(...args), args.join(' '));
      if (line instanceof RegExp) expect(said, args.join(' ')).to.match(line);
      else expect(said, args.join(' ')).to.equal(line);
    }
    expect((await cli('user', 'list')).stdout).to.match(/^dave \(uid \S+\) permissions: Cryptography::Encrypt\n$/);
    expect((await cli('token', 'list', '--username', 'dave')).stdout).to.equal('[]\n');
  });

  it('says what is wrong with a command line it cannot read, and exits 1 without running anything', async () => {
    const missing = await cli('user', 'create');
    expect(missing.status).to.equal(1);
    expect(missing.stderr.split('\n')[0]).to.equal("error: required option '--username <name>' not specified");
    const unknown = await cli('user', 'frobnicate');
    expect(unknown.status).to.equal(1);
    expect(unknown.stderr.split('\n')[0]).to.equal("error: unknown command 'frobnicate'");
    expect((await cli('user', 'list')).stdout).to.equal('');
  });

  it('prints its help on stdout and exits 0 when asked', async () => {
    const help = await cli('user', 'create', '--help');
    expect(help).to.include({ status: 0, stderr: '' });
    expect(help.stdout)
      .to.include('--password-stdin')
      .and.not.to.match(/--password </);
  });
});

describe('cli: start-up failures, in process', () => {
  it('cannot reach the database: one line naming why, exit code 1', async () => {
    const refused = await runCommand({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/utility' }, ['user', 'list']);
    expect(expectOneLineFailure(refused, 'closed port')).to.equal(
      'utility-api: cannot start: connect ECONNREFUSED 127.0.0.1:1',
    );
    // A name with two addresses fails once for each, in an error with no message of its own.
    const everyAddress = await runCommand({ DATABASE_URL: 'postgres://postgres@localhost:1/utility' }, [
      'user',
      'list',
    ]);
    expect(expectOneLineFailure(everyAddress, 'localhost')).to.match(
      /^utility-api: cannot start: connect ECONNREFUSED \S+:1(; connect ECONNREFUSED \S+:1)*$/,
    );
  });

  it('a data folder it cannot create: one line naming it, exit code 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'utility-api-cli-'));
    try {
      writeFileSync(join(dir, 'occupied'), 'a file where the data folder should be');
      const refused = await runCommand({ UTILITY_API_SQLITE_FILE: join(dir, 'occupied', 'utility-api.sqlite') }, [
        'user',
        'list',
      ]);
      expect(expectOneLineFailure(refused, 'data folder')).to.match(/^utility-api: cannot start: E\w+: .*occupied/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bad setting: one line naming it, where it came from and what it must be, exit code 1', async () => {
    const refused = await runCommand({ UTILITY_API_STORAGE: 'mongodb' }, ['user', 'list']);
    expect(expectOneLineFailure(refused, 'storage')).to.equal(
      'utility-api: Invalid setting storage (from env UTILITY_API_STORAGE): expected "memory", "sqlite" or "postgres", got "mongodb"',
    );
  });

  it('several bad settings: one line each', async () => {
    const refused = await runCommand({ UTILITY_API_STORAGE: 'mongodb', UTILITY_API_TOKEN_CACHE_TTL_MS: 'soon' }, [
      'migrate',
    ]);
    expect(refused).to.include({ status: 1, stdout: '' });
    const lines = refused.stderr.trimEnd().split('\n');
    expect(lines).to.have.length(2);
    for (const line of lines) expect(line).to.match(/^utility-api: Invalid setting \S+ \(from env UTILITY_API_\w+\)/);
  });
});
