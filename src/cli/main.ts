import 'reflect-metadata';
import { Command, Option } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig } from '../config/load-config.js';
import { buildApplication, type Application } from '../container.js';
import { catalogueEntryOf, detailsOf, type DomainError } from '../domain/errors.js';
import { IssueToken } from '../domain/tokens/issue-token.js';
import { parseDuration } from '../domain/tokens/duration.js';
import { OPERATOR } from '../domain/auth/actor.js';
import { RevokeToken, TokenReader } from '../domain/tokens/manage-tokens.js';
import { CreateUser } from '../domain/users/create-user.js';
import { DeleteUser, GetUser, ListUsers, UpdateUser } from '../domain/users/manage-users.js';
import { viewOfUser } from '../domain/users/user-view.js';
import type { User } from '../domain/users/user.js';

/** A failure the user can act on: printed as one line, exit code 1. */
class CliFailure extends Error {}

/** The use case's result, or a one-line failure naming the catalogue error. */
function orFail<A>(result: E.Either<DomainError, A>): A {
  if (E.isRight(result)) return result.right;
  const details = detailsOf(result.left);
  throw new CliFailure(catalogueEntryOf(result.left).message + (details === undefined ? '' : `: ${details}`));
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Opens the same application graph as the server (no HTTP), runs one use case, closes it. */
async function withApplication<A>(work: (app: Application) => Promise<A>): Promise<A> {
  const config = loadConfig();
  if (E.isLeft(config)) throw new CliFailure(config.left.join('\n'));
  // Logs go to stderr so that stdout holds only what the command prints; routine ones are noise here.
  const level = process.env.LOG_LEVEL ? config.right.log.level : 'warn';
  const app = await buildApplication({ ...config.right, log: { level } }, { logFd: 2 });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}

const describeUser = (user: User): string =>
  `${user.username} (uid ${user.uid}) permissions: ${user.permissions.length > 0 ? user.permissions.join(', ') : '(none)'}${user.blocked ? ' [blocked]' : ''}`;

const asJson = (value: unknown): void => console.log(JSON.stringify(value, null, 2));

export function buildCli(): Command {
  const program = new Command('utility-api').description('Manage a utility-api installation: users, tokens, database').showHelpAfterError();

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(() =>
      withApplication(async ({ config }) => {
        // buildApplication has applied them; say where.
        console.log(`Database is up to date (${config.storage}).`);
      }),
    );

  const user = program.command('user').description('manage users');
  user
    .command('create')
    .description('create a user')
    .requiredOption('--username <name>', 'unique user name')
    .option('--permission <permission>', 'a permission to grant (repeatable), e.g. Cryptography::*', collect, [])
    .option('--first-name <name>')
    .option('--last-name <name>')
    .option('--email <email>')
    .action((options: { username: string; permission: string[]; firstName?: string; lastName?: string; email?: string }) =>
      withApplication(async ({ container }) => {
        const created = orFail(await container.get(CreateUser).execute({
          actor: OPERATOR,
          username: options.username,
          permissions: options.permission,
          firstName: options.firstName,
          lastName: options.lastName,
          email: options.email,
        }));
        console.log(`Created user ${describeUser(created)}`);
      }),
    );

  user
    .command('get')
    .description('show a user as JSON')
    .requiredOption('--username <name>')
    .action((options: { username: string }) =>
      withApplication(async ({ container }) => {
        const found = orFail(await container.get(GetUser).execute(OPERATOR, { username: options.username }));
        asJson(viewOfUser(found));
      }),
    );

  user
    .command('list')
    .description('list every user, oldest first')
    .action(() =>
      withApplication(async ({ container }) => {
        const users = orFail(await container.get(ListUsers).execute(OPERATOR));
        for (const each of users) console.log(describeUser(each));
      }),
    );

  user
    .command('update')
    .description("change a user's display name, email, password or permissions")
    .requiredOption('--username <name>')
    .option('--display-name <name>')
    .option('--email <email>')
    .option('--password <password>', 'prefer the environment variable UTILITY_API_NEW_PASSWORD: arguments show in process lists')
    .option('--permission <permission>', 'replace the permissions with these (repeatable)', collect)
    .option('--no-permissions', 'remove every permission')
    .action((options: { username: string; displayName?: string; email?: string; password?: string; permission?: string[]; permissions: boolean }) =>
      withApplication(async ({ container }) => {
        const permissions = options.permissions === false ? [] : options.permission;
        const updated = orFail(await container.get(UpdateUser).execute(OPERATOR, { username: options.username }, {
          displayName: options.displayName,
          email: options.email,
          password: options.password ?? process.env.UTILITY_API_NEW_PASSWORD,
          permissions,
        }));
        console.log(`Updated user ${describeUser(updated)}`);
      }),
    );

  user
    .command('delete')
    .description('delete a user and all of their tokens')
    .requiredOption('--username <name>')
    .action((options: { username: string }) =>
      withApplication(async ({ container }) => {
        const deleted = orFail(await container.get(DeleteUser).execute(OPERATOR, { username: options.username }));
        console.log(`Deleted user ${deleted.username} (uid ${deleted.uid}) and their tokens`);
      }),
    );

  for (const [name, blocked] of [['block', true], ['unblock', false]] as const) {
    user
      .command(name)
      .description(blocked ? 'block a user: all of its tokens answer 403' : 'unblock a user')
      .requiredOption('--username <name>')
      .action((options: { username: string }) =>
        withApplication(async ({ container }) => {
          const updated = orFail(await container.get(UpdateUser).execute(OPERATOR, { username: options.username }, { blocked }));
          console.log(`${blocked ? 'Blocked' : 'Unblocked'} user ${describeUser(updated)}`);
        }),
      );
  }

  const token = program.command('token').description('manage API tokens');
  token
    .command('create')
    .description('issue a token; the secret is printed once, alone on the last line')
    .requiredOption('--username <name>', 'the user the token acts as')
    .option('--permission <permission>', "narrow the token to this permission (repeatable); default: all of the user's", collect)
    .addOption(new Option('--expires-in <duration>', 'lifetime such as 90s, 15m, 12h, 30d, 2w; default: never'))
    .option('--name <name>', 'a label to recognise the token by')
    .action((options: { username: string; permission?: string[]; expiresIn?: string; name?: string }) =>
      withApplication(async ({ container }) => {
        let expiresInMs: number | undefined;
        if (options.expiresIn !== undefined) {
          expiresInMs = parseDuration(options.expiresIn);
          if (expiresInMs === undefined) throw new CliFailure(`--expires-in must look like 90s, 15m, 12h, 30d or 2w (at most 10 years), got "${options.expiresIn}"`);
        }
        const issued = orFail(await container.get(IssueToken).execute({
          actor: OPERATOR,
          owner: { username: options.username },
          scopes: options.permission,
          expiresInMs,
          name: options.name,
        }));
        const { record, user: owner, secret } = issued;
        if (owner.blocked) process.stderr.write(`warning: ${owner.username} is blocked; this token will be refused until the user is unblocked\n`);
        console.log(`Token ${record.id} for ${owner.username}`);
        console.log(`  licence:     ${record.license}`);
        console.log(`  prefix:      ${record.prefix}`);
        console.log(`  permissions: ${record.scopes.length > 0 ? record.scopes.join(', ') : '(none)'}`);
        console.log(`  expires:     ${record.expiresAt === null ? 'never' : new Date(record.expiresAt).toISOString()}`);
        console.log('The secret below is shown only now:');
        console.log(secret);
      }),
    );

  token
    .command('info')
    .description("show a token's metadata as JSON")
    .requiredOption('--id <id>')
    .action((options: { id: string }) =>
      withApplication(async ({ container }) => {
        const info = orFail(await container.get(TokenReader).info(OPERATOR, options.id));
        asJson(info);
      }),
    );

  token
    .command('list')
    .description("list a user's tokens, newest first, as JSON")
    .requiredOption('--username <name>')
    .action((options: { username: string }) =>
      withApplication(async ({ container }) => {
        const list = orFail(await container.get(TokenReader).list(OPERATOR, { username: options.username }));
        asJson(list);
      }),
    );

  token
    .command('revoke')
    .description('delete a token: it is refused from then on')
    .requiredOption('--id <id>')
    .action((options: { id: string }) =>
      withApplication(async ({ container }) => {
        const revoked = orFail(await container.get(RevokeToken).execute(OPERATOR, options.id));
        console.log(`Revoked token ${revoked.id} (${revoked.prefix}…)`);
      }),
    );

  return program;
}

export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await buildCli().parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    const message = error instanceof CliFailure ? error.message : `unexpected failure: ${(error as Error).message}`;
    process.stderr.write(`utility-api: ${message}\n`);
    return 1;
  }
}
