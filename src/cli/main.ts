import 'reflect-metadata';
import { Command, CommanderError, Option } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig } from '../config/load-config.js';
import { buildApplication, type Application } from '../container.js';
import { catalogueEntryOf, detailsOf, type DomainError } from '../domain/errors.js';
import { parseDuration } from '../families/users-and-tokens/domain/tokens/duration.js';
import { describeRateLimit, parseRateLimit, type RateLimit } from '../domain/identity/rate-limit.js';
import { OPERATOR } from '../domain/identity/actor.js';
import { viewOfUser } from '../families/users-and-tokens/domain/users/user-view.js';
import type { User } from '../domain/identity/user.js';
import { CliFailure } from '../platform/cli/cli-failure.js';
import { passwordFromStdin } from './password-stdin.js';
import { reasonOf } from '../platform/failure-reason.js';
import { contentCommands } from '../families/content/content-commands.js';
import { mailCommands } from '../families/mail/mail-commands.js';

/**
 * What a command reads and writes: the process's own streams and environment from the binary,
 * a test's from a test, so that a test sees exactly what a user would without starting a process.
 */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  /** Where settings are read from, as the server reads its own (PORT, DATABASE_URL, ...). */
  readonly env: NodeJS.ProcessEnv;
}

export const processIo = (): CliIo => ({
  stdout: process.stdout,
  stderr: process.stderr,
  // Only a command that reads it touches it: an opened terminal stdin can keep the process alive.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
});

/** The flag a user types for each input field the use cases name. */
const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  username: '--username',
  firstname: '--first-name',
  lastname: '--last-name',
  email: '--email',
  password: '--password-stdin',
  displayname: '--display-name',
  permissions: '--permission',
  perms: '--permission',
  name: '--name',
  kind: '--kind',
  category: '--category',
  id: '--id',
  file: 'FILE',
  status: '--status',
  limit: '--limit',
};

/** The use case's result, or a one-line failure naming the catalogue error, or the flag at fault. */
export function orFail<A>(result: E.Either<DomainError, A>): A {
  if (E.isRight(result)) return result.right;
  const error = result.left;
  const details = detailsOf(error);
  if (error._tag === 'InvalidInput' || error._tag === 'MissingInput') {
    const flags = error.fields.map((field) => FLAG_OF_FIELD[field] ?? field).join(', ');
    throw new CliFailure(
      `${error._tag === 'InvalidInput' ? 'Invalid' : 'Missing'} ${flags}${details === undefined ? '' : `: ${details}`}`,
    );
  }
  throw new CliFailure(catalogueEntryOf(error).message + (details === undefined ? '' : `: ${details}`));
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

const describeUser = (user: User): string =>
  `${user.username} (uid ${user.uid}) permissions: ${user.permissions.length > 0 ? user.permissions.join(', ') : '(none)'}${user.blocked ? ' [blocked]' : ''}`;

export function buildCli(io: CliIo = processIo()): Command {
  const print = (line: string): void => void io.stdout.write(`${line}\n`);
  const printJson = (value: unknown): void => print(JSON.stringify(value, null, 2));

  /** Opens the same application graph as the server (no HTTP), runs one use case, closes it. */
  async function withApplication<A>(work: (app: Application) => Promise<A>): Promise<A> {
    const config = loadConfig({ env: io.env });
    if (E.isLeft(config)) throw new CliFailure(config.left.join('\n'));
    // Logs go to the process's stderr (fd 2, not `io`) so that stdout holds only what the command
    // prints; routine ones are noise here.
    const level = io.env.LOG_LEVEL ? config.right.log.level : 'warn';
    let app: Application;
    try {
      // The CLI never delivers mail: a command would take messages and stop before sending them.
      app = await buildApplication(
        { ...config.right, log: { level }, mail: { ...config.right.mail, worker: false } },
        { logFd: 2 },
      );
    } catch (error) {
      throw new CliFailure(`cannot start: ${reasonOf(error)}`);
    }
    try {
      return await work(app);
    } finally {
      await app.close();
    }
  }

  const program = new Command('utility-api')
    .description('Manage a utility-api installation: users, tokens, database')
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) })
    // Commander's own exit would end whatever process runs the CLI; runCli turns it into an exit code.
    .exitOverride()
    .showHelpAfterError();

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(() =>
      withApplication(async ({ config }) => {
        // buildApplication has applied them; say where.
        print(`Database is up to date (${config.storage}).`);
      }),
    );

  const passwordStdinHelp =
    'read the password from the first line of standard input (never from an argument: those show in process lists)';
  const user = program.command('user').description('manage users');
  user
    .command('create')
    .description('create a user')
    .requiredOption('--username <name>', 'unique user name')
    .option('--permission <permission>', 'a permission to grant (repeatable), e.g. Cryptography::*', collect, [])
    .option('--first-name <name>')
    .option('--last-name <name>')
    .option('--email <email>')
    .option('--password-stdin', passwordStdinHelp)
    .action(
      async (options: {
        username: string;
        permission: string[];
        firstName?: string;
        lastName?: string;
        email?: string;
        passwordStdin?: true;
      }) => {
        const password = options.passwordStdin ? await passwordFromStdin(io.stdin) : undefined;
        await withApplication(async ({ useCases }) => {
          const created = orFail(
            await useCases.usersAndTokens.createUser.execute({
              actor: OPERATOR,
              username: options.username,
              permissions: options.permission,
              firstName: options.firstName,
              lastName: options.lastName,
              email: options.email,
              password,
            }),
          );
          print(`Created user ${describeUser(created)}`);
        });
      },
    );

  user
    .command('get')
    .description('show a user as JSON')
    .requiredOption('--username <name>')
    .action((options: { username: string }) =>
      withApplication(async ({ useCases }) => {
        const found = orFail(await useCases.usersAndTokens.getUser.execute(OPERATOR, { username: options.username }));
        printJson(viewOfUser(found));
      }),
    );

  user
    .command('list')
    .description('list every user, oldest first')
    .action(() =>
      withApplication(async ({ useCases }) => {
        const users = orFail(await useCases.usersAndTokens.listUsers.execute(OPERATOR));
        for (const each of users) print(describeUser(each));
      }),
    );

  user
    .command('update')
    .description("change a user's display name, email, password or permissions")
    .requiredOption('--username <name>')
    .option('--display-name <name>')
    .option('--email <email>')
    .option('--password-stdin', passwordStdinHelp)
    .option('--permission <permission>', 'replace the permissions with these (repeatable)', collect)
    .option('--no-permissions', 'remove every permission')
    .action(
      async (options: {
        username: string;
        displayName?: string;
        email?: string;
        passwordStdin?: true;
        permission?: string[];
        permissions: boolean;
      }) => {
        // It was read before --password-stdin existed; ignored, it would leave the old password in place unnoticed.
        if (io.env.UTILITY_API_NEW_PASSWORD !== undefined) {
          throw new CliFailure(
            'UTILITY_API_NEW_PASSWORD is no longer read; give the password on standard input with --password-stdin',
          );
        }
        const password = options.passwordStdin ? await passwordFromStdin(io.stdin) : undefined;
        await withApplication(async ({ useCases }) => {
          const permissions = options.permissions === false ? [] : options.permission;
          const updated = orFail(
            await useCases.usersAndTokens.updateUser.execute(
              OPERATOR,
              { username: options.username },
              {
                displayName: options.displayName,
                email: options.email,
                password,
                permissions,
              },
            ),
          );
          print(`Updated user ${describeUser(updated)}`);
        });
      },
    );

  user
    .command('delete')
    .description('delete a user and all of their tokens')
    .requiredOption('--username <name>')
    .action((options: { username: string }) =>
      withApplication(async ({ useCases }) => {
        const deleted = orFail(
          await useCases.usersAndTokens.deleteUser.execute(OPERATOR, { username: options.username }),
        );
        print(`Deleted user ${deleted.username} (uid ${deleted.uid}) and their tokens`);
      }),
    );

  for (const [name, blocked] of [
    ['block', true],
    ['unblock', false],
  ] as const) {
    user
      .command(name)
      .description(blocked ? 'block a user: all of its tokens answer 403' : 'unblock a user')
      .requiredOption('--username <name>')
      .action((options: { username: string }) =>
        withApplication(async ({ useCases }) => {
          const updated = orFail(
            await useCases.usersAndTokens.updateUser.execute(OPERATOR, { username: options.username }, { blocked }),
          );
          print(`${blocked ? 'Blocked' : 'Unblocked'} user ${describeUser(updated)}`);
        }),
      );
  }

  const token = program.command('token').description('manage API tokens');
  token
    .command('create')
    .description('issue a token; the secret is printed once, alone on the last line')
    .requiredOption('--username <name>', 'the user the token acts as')
    .option(
      '--permission <permission>',
      "narrow the token to this permission (repeatable); default: all of the user's",
      collect,
    )
    .addOption(new Option('--expires-in <duration>', 'lifetime such as 90s, 15m, 12h, 30d, 2w; default: never'))
    .option('--name <name>', 'a label to recognise the token by')
    .addOption(
      new Option(
        '--rate-limit <requests/seconds>',
        "the token's own request rate limit, such as 100/10; default: the installation's policy",
      ),
    )
    .action(
      (options: { username: string; permission?: string[]; expiresIn?: string; name?: string; rateLimit?: string }) => {
        // Flags are read before the database is opened: a mistyped one costs nothing.
        let expiresInMs: number | undefined;
        if (options.expiresIn !== undefined) {
          expiresInMs = parseDuration(options.expiresIn);
          if (expiresInMs === undefined)
            throw new CliFailure(
              `--expires-in must look like 90s, 15m, 12h, 30d or 2w (at most 10 years), got "${options.expiresIn}"`,
            );
        }
        let rateLimit: RateLimit | undefined;
        if (options.rateLimit !== undefined) {
          rateLimit = parseRateLimit(options.rateLimit);
          if (rateLimit === undefined)
            throw new CliFailure(
              `--rate-limit must look like 100/10 (requests/seconds: at most 1000000000 requests, 86400 s), got "${options.rateLimit}"`,
            );
        }
        return withApplication(async ({ useCases }) => {
          const issued = orFail(
            await useCases.usersAndTokens.issueToken.execute({
              actor: OPERATOR,
              owner: { username: options.username },
              scopes: options.permission,
              expiresInMs,
              name: options.name,
              rateLimit,
            }),
          );
          const { record, user: owner, secret } = issued;
          if (owner.blocked)
            io.stderr.write(
              `warning: ${owner.username} is blocked; this token will be refused until the user is unblocked\n`,
            );
          print(`Token ${record.id} for ${owner.username}`);
          print(`  licence:     ${record.license}`);
          print(`  prefix:      ${record.prefix}`);
          print(`  permissions: ${record.scopes.length > 0 ? record.scopes.join(', ') : '(none)'}`);
          print(`  expires:     ${record.expiresAt === null ? 'never' : new Date(record.expiresAt).toISOString()}`);
          print(
            `  rate limit:  ${record.rateLimit === null ? "the installation's policy" : describeRateLimit(record.rateLimit)}`,
          );
          print('The secret below is shown only now:');
          print(secret);
        });
      },
    );

  token
    .command('info')
    .description("show a token's metadata as JSON")
    .requiredOption('--id <id>')
    .action((options: { id: string }) =>
      withApplication(async ({ useCases }) => {
        const info = orFail(await useCases.usersAndTokens.tokenReader.info(OPERATOR, options.id));
        printJson(info);
      }),
    );

  token
    .command('list')
    .description("list a user's tokens, newest first, as JSON")
    .requiredOption('--username <name>')
    .action((options: { username: string }) =>
      withApplication(async ({ useCases }) => {
        const list = orFail(await useCases.usersAndTokens.tokenReader.list(OPERATOR, { username: options.username }));
        printJson(list);
      }),
    );

  token
    .command('revoke')
    .description('delete a token: it is refused from then on')
    .requiredOption('--id <id>')
    .action((options: { id: string }) =>
      withApplication(async ({ useCases }) => {
        const revoked = orFail(await useCases.usersAndTokens.revokeToken.execute(OPERATOR, options.id));
        print(`Revoked token ${revoked.id} (${revoked.prefix}…)`);
      }),
    );

  for (const [name, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    token
      .command(name)
      .description(
        disabled
          ? 'disable a token: it answers 403 from then on, until enabled again'
          : 'enable a disabled token again',
      )
      .requiredOption('--id <id>')
      .action((options: { id: string }) =>
        withApplication(async ({ useCases }) => {
          const updated = orFail(await useCases.usersAndTokens.updateToken.execute(OPERATOR, options.id, { disabled }));
          print(`${disabled ? 'Disabled' : 'Enabled'} token ${updated.id} (${updated.prefix}…) of ${updated.username}`);
        }),
      );
  }

  contentCommands(program, {
    print,
    withUseCases: (work) => withApplication(({ useCases }) => work(useCases.content)),
    orFail,
  });
  mailCommands(program, {
    print,
    withUseCases: (work) => withApplication(({ useCases }) => work(useCases.mail)),
    orFail,
  });

  return program;
}

/** Runs one command line and gives its exit code; what it says goes to `io`'s streams. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    await buildCli(io).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already said what was wrong with the command line (or printed the help asked for).
    if (error instanceof CommanderError) return error.exitCode;
    const message = error instanceof CliFailure ? error.message : `unexpected failure: ${reasonOf(error)}`;
    for (const line of message.split('\n')) io.stderr.write(`utility-api: ${line}\n`);
    return 1;
  }
}
