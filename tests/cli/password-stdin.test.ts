import { expect } from 'chai';
import { KnexUserStore } from '../../src/families/users-and-tokens/adapters/knex/knex-user-store.js';
import { detailsOf } from '../../src/domain/errors.js';
import { ScryptPasswords } from '../../src/families/users-and-tokens/adapters/scrypt-passwords.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../src/families/users-and-tokens/domain/users/password.js';
import { checkPassword } from '../../src/families/users-and-tokens/domain/users/user-rules.js';
import { freshSqlite, sqlDatabases, type TestDatabase } from '../support/databases.js';
import { runCommand, type CliResult, type Stdin } from './run-cli.js';

/** Verifies a hash of any cost: the parameters travel with it. */
const STANDARD_PASSWORDS = new ScryptPasswords();

const PASSWORD = 'correct horse battery staple';
/** The domain's own words for a password it refuses, which the CLI passes on naming its flag. */
const PASSWORD_REFUSED = `Invalid --password-stdin: ${detailsOf(checkPassword('short')!)}`;

/** `bytes` as a pipe may deliver them: `size` at a time, cutting through characters. */
const inPiecesOf = (size: number, bytes: Buffer): Buffer[] =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, index) =>
    bytes.subarray(index * size, (index + 1) * size),
  );

/** A fresh database for each test, the CLI on it, and what it stored. */
function passwordFixture(open: () => Promise<TestDatabase>) {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await open();
  });
  afterEach(() => database.drop());
  const cli = (args: string[], stdin?: Stdin, env: Record<string, string> = {}) =>
    runCommand({ ...database.env, ...env }, args, stdin);
  return {
    cli,
    createWithPassword: (username: string, stdin: Stdin) =>
      cli(['user', 'create', '--username', username, '--password-stdin'], stdin),
    storedHash: async (username: string) =>
      (await new KnexUserStore(database.db).findByUsername(username))?.passwordHash,
    storedUsers: () => new KnexUserStore(database.db).listPage({ limit: 1000 }),
  };
}

const expectRefused = (result: CliResult, line: string) =>
  expect(result).to.deep.include({ status: 1, stdout: '', stderr: `utility-api: ${line}\n` });

for (const backend of sqlDatabases) {
  describe(`cli: --password-stdin stores what the domain hashed, in process (${backend.name})`, () => {
    const { cli, createWithPassword, storedHash } = passwordFixture(backend.open);

    it('creates a user with the first line of standard input as the password, hashed by the domain, never printed', async () => {
      const created = await createWithPassword('alice', `${PASSWORD}\n`);
      expect(created.status, created.stderr).to.equal(0);
      expect(created.stdout + created.stderr).not.to.include(PASSWORD);
      const hash = (await storedHash('alice'))!;
      expect(hash).to.match(/^scrypt\$/);
      expect(await STANDARD_PASSWORDS.verify(PASSWORD, hash)).to.equal(true);
      expect(await STANDARD_PASSWORDS.verify(`${PASSWORD}\n`, hash)).to.equal(false);
    });

    it('changes a password with user update, and only then', async () => {
      await createWithPassword('bob', `${PASSWORD}\n`);
      const before = await storedHash('bob');
      const renamed = await cli(['user', 'update', '--username', 'bob', '--display-name', 'Bobby']);
      expect(renamed.status, renamed.stderr).to.equal(0);
      expect(await storedHash('bob')).to.equal(before);

      const updated = await cli(
        ['user', 'update', '--username', 'bob', '--password-stdin'],
        'a brand new passphrase\n',
      );
      expect(updated.status, updated.stderr).to.equal(0);
      const after = (await storedHash('bob'))!;
      expect(await STANDARD_PASSWORDS.verify('a brand new passphrase', after)).to.equal(true);
      expect(await STANDARD_PASSWORDS.verify(PASSWORD, after)).to.equal(false);
    });

    it('refuses a bad password on update and keeps the old one', async () => {
      await createWithPassword('dora', `${PASSWORD}\n`);
      const before = await storedHash('dora');
      expectRefused(
        await cli(['user', 'update', '--username', 'dora', '--password-stdin'], []),
        '--password-stdin: no password on standard input (its first line is empty)',
      );
      expectRefused(
        await cli(['user', 'update', '--username', 'dora', '--password-stdin'], 'short\n'),
        PASSWORD_REFUSED,
      );
      expect(await storedHash('dora')).to.equal(before);
    });
  });
}

// How standard input is read is the transport's own; the store it ends in is the same as above.
describe('cli: --password-stdin reads the first line of standard input as typed, in process (SQLite)', () => {
  const { cli, createWithPassword, storedHash, storedUsers } = passwordFixture(freshSqlite);

  it('takes the line as typed: spaces kept, a CRLF or LF ending dropped, a last line without ending whole, later lines ignored', async () => {
    const cases: [username: string, stdin: Stdin, password: string][] = [
      ['spaces', '  spaces around it  \r\nthe second line is not read\n', '  spaces around it  '],
      ['noend', 'no line ending at all', 'no line ending at all'],
      // A character split between two reads of the pipe is still one character.
      ['split', inPiecesOf(3, Buffer.from('pässwörd 🔑\n')), 'pässwörd 🔑'],
    ];
    for (const [username, stdin, password] of cases) {
      const created = await createWithPassword(username, stdin);
      expect(created.status, `${username}: ${created.stderr}`).to.equal(0);
      expect(await STANDARD_PASSWORDS.verify(password, (await storedHash(username))!), username).to.equal(true);
    }
  });

  it('refuses an empty standard input, an empty first line, text that is not UTF-8, and a password the domain refuses, creating nobody', async () => {
    expectRefused(
      await createWithPassword('carol', []),
      '--password-stdin: no password on standard input (its first line is empty)',
    );
    expectRefused(
      await createWithPassword('carol', '\nsecret on the second line\n'),
      '--password-stdin: no password on standard input (its first line is empty)',
    );
    expectRefused(
      await createWithPassword(
        'carol',
        Buffer.from([0x70, 0x61, 0x73, 0x73, 0xff, 0xfe, 0x77, 0x6f, 0x72, 0x64, 0x31, 0x32, 0x0a]),
      ),
      '--password-stdin: the first line of standard input is not UTF-8 text',
    );
    expectRefused(await createWithPassword('carol', `${'x'.repeat(MIN_PASSWORD_LENGTH - 1)}\n`), PASSWORD_REFUSED);
    expectRefused(await createWithPassword('carol', `${'x'.repeat(MAX_PASSWORD_LENGTH + 1)}\n`), PASSWORD_REFUSED);
    // A first line longer than any password is refused as it is, read no further and never cut
    // short: 512 keys cut at a byte bound could leave 256 of them, a password the domain takes.
    const overLong = `--password-stdin: the first line of standard input is over ${4 * (MAX_PASSWORD_LENGTH + 1)} bytes, longer than any password`;
    expectRefused(
      await createWithPassword(
        'carol',
        Array.from({ length: 64 }, () => 'y'.repeat(16_384)),
      ),
      overLong,
    );
    expectRefused(await createWithPassword('carol', `${'🔑'.repeat(MAX_PASSWORD_LENGTH + 44)}\n`), overLong);
    expectRefused(
      await createWithPassword('carol', inPiecesOf(1000, Buffer.from('🔑'.repeat(MAX_PASSWORD_LENGTH * 2)))),
      overLong,
    );
    expect(await storedUsers()).to.deep.equal([]);
  });

  it('takes no password as an argument, nor from UTILITY_API_NEW_PASSWORD, which it once read', async () => {
    await createWithPassword('erin', `${PASSWORD}\n`);
    const before = await storedHash('erin');
    const asArgument = await cli(['user', 'update', '--username', 'erin', '--password', 'visible in ps aux']);
    expect(asArgument.status).to.equal(1);
    expect(asArgument.stderr.split('\n')[0]).to.equal("error: unknown option '--password'");
    const created = await cli(['user', 'create', '--username', 'fred', '--password', 'visible in ps aux']);
    expect(created.status).to.equal(1);
    expect((await storedUsers()).map((user) => user.username)).not.to.include('fred');

    const fromEnvironment = await cli(['user', 'update', '--username', 'erin'], [], {
      UTILITY_API_NEW_PASSWORD: 'a long enough secret',
    });
    expectRefused(
      fromEnvironment,
      'UTILITY_API_NEW_PASSWORD is no longer read; give the password on standard input with --password-stdin',
    );
    expect(await storedHash('erin')).to.equal(before);
  });
});
