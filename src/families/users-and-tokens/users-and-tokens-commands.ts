import { Option, type Command } from 'commander';
import { OPERATOR } from '../../domain/identity/actor.js';
import { describeQuota, parseQuota, type Quota } from '../../domain/identity/quota.js';
import { describeRateLimit, parseRateLimit, type RateLimit } from '../../domain/identity/rate-limit.js';
import type { User } from '../../domain/identity/user.js';
import { CliFailure } from '../../platform/cli/cli-failure.js';
import { collect, type CommandTools } from '../../platform/cli/commands.js';
import { parseDuration } from './domain/tokens/duration.js';
import { MAX_ROTATION_GRACE_MS } from './domain/tokens/rotate-token.js';
import { viewOfUser } from './domain/users/user-view.js';
import { passwordFromStdin } from './password-stdin.js';
import type { UsersAndTokensUseCases } from './users-and-tokens-module.js';
import { userListCommand } from './user-list-command.js';

/** `--quota` as given: read before the database is opened, so that a mistyped one costs nothing. */
function quotaOption(text: string): Quota {
  const quota = parseQuota(text);
  if (quota === undefined)
    throw new CliFailure(`--quota must look like 1000/day or 50000/month (at most 1000000000 requests), got "${text}"`);
  return quota;
}

const describeUser = (user: User): string =>
  `${user.username} (uid ${user.uid}) permissions: ${user.permissions.length > 0 ? user.permissions.join(', ') : '(none)'}${user.blocked ? ' [blocked]' : ''}`;

/** `user create|get|list|update|delete|block|unblock` and `token create|info|list|revoke|disable|enable`. */
export function usersAndTokensCommands(program: Command, tools: CommandTools<UsersAndTokensUseCases>): void {
  const { io, print, printJson, orFail, withUseCases } = tools;
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
        await withUseCases(async (useCases) => {
          const created = orFail(
            await useCases.createUser.execute({
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
      withUseCases(async (useCases) => {
        const found = orFail(await useCases.getUser.execute(OPERATOR, { username: options.username }));
        printJson(viewOfUser(found));
      }),
    );

  userListCommand(user, tools, describeUser);

  user
    .command('update')
    .description("change a user's names, email, password or permissions")
    .requiredOption('--username <name>')
    .option('--first-name <name>')
    .option('--last-name <name>')
    .option('--display-name <name>')
    .option('--email <email>')
    .option('--password-stdin', passwordStdinHelp)
    .option('--permission <permission>', 'replace the permissions with these (repeatable)', collect)
    .option('--no-permissions', 'remove every permission')
    .option('--quota <requests/period>', "the user's quota over all their tokens, such as 50000/month, or none")
    .action(
      async (options: {
        username: string;
        firstName?: string;
        lastName?: string;
        displayName?: string;
        email?: string;
        passwordStdin?: true;
        permission?: string[];
        permissions: boolean;
        quota?: string;
      }) => {
        // It was read before --password-stdin existed; ignored, it would leave the old password in place unnoticed.
        if (io.env.UTILITY_API_NEW_PASSWORD !== undefined) {
          throw new CliFailure(
            'UTILITY_API_NEW_PASSWORD is no longer read; give the password on standard input with --password-stdin',
          );
        }
        const quota =
          options.quota === undefined ? undefined : options.quota === 'none' ? null : quotaOption(options.quota);
        const password = options.passwordStdin ? await passwordFromStdin(io.stdin) : undefined;
        await withUseCases(async (useCases) => {
          const permissions = options.permissions === false ? [] : options.permission;
          const updated = orFail(
            await useCases.updateUser.execute(
              OPERATOR,
              { username: options.username },
              {
                firstName: options.firstName,
                lastName: options.lastName,
                displayName: options.displayName,
                email: options.email,
                password,
                permissions,
                quota,
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
      withUseCases(async (useCases) => {
        const deleted = orFail(await useCases.deleteUser.execute(OPERATOR, { username: options.username }));
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
        withUseCases(async (useCases) => {
          const updated = orFail(
            await useCases.updateUser.execute(OPERATOR, { username: options.username }, { blocked }),
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
    .option('--quota <requests/period>', 'requests the token may make each UTC day or calendar month, such as 1000/day')
    .action(
      (options: {
        username: string;
        permission?: string[];
        expiresIn?: string;
        name?: string;
        rateLimit?: string;
        quota?: string;
      }) => {
        // Flags are read before the database is opened: a mistyped one costs nothing.
        let expiresInMs: number | undefined;
        if (options.expiresIn !== undefined) {
          expiresInMs = parseDuration(options.expiresIn);
          if (expiresInMs === undefined)
            throw new CliFailure(
              `--expires-in must look like 90s, 15m, 12h, 30d, 2w or 1y (at most 10 years), got "${options.expiresIn}"`,
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
        const quota = options.quota === undefined ? undefined : quotaOption(options.quota);
        return withUseCases(async (useCases) => {
          const issued = orFail(
            await useCases.issueToken.execute({
              actor: OPERATOR,
              owner: { username: options.username },
              scopes: options.permission,
              expiresInMs,
              name: options.name,
              rateLimit,
              quota,
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
          if (record.quota) print(`  quota:       ${describeQuota(record.quota)}`);
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
      withUseCases(async (useCases) => {
        const info = orFail(await useCases.tokenReader.info(OPERATOR, options.id));
        printJson(info);
      }),
    );

  token
    .command('list')
    .description("list a user's tokens, newest first, as JSON")
    .requiredOption('--username <name>')
    .action((options: { username: string }) =>
      withUseCases(async (useCases) => {
        const list = orFail(await useCases.tokenReader.list(OPERATOR, { username: options.username }));
        printJson(list);
      }),
    );

  token
    .command('revoke')
    .description('delete a token: it is refused from then on')
    .requiredOption('--id <id>')
    .action((options: { id: string }) =>
      withUseCases(async (useCases) => {
        const revoked = orFail(await useCases.revokeToken.execute(OPERATOR, options.id));
        print(`Revoked token ${revoked.id} (${revoked.prefix}…)`);
      }),
    );

  token
    .command('rotate')
    .description('replace a token by a new one holding what it held; the old one stops after the grace')
    .requiredOption('--id <id>')
    .option('--grace-seconds <seconds>', 'how long the old token keeps working, 0 to 604800', '86400')
    .action((options: { id: string; graceSeconds: string }) =>
      withUseCases(async (useCases) => {
        const grace = /^\d{1,6}$/.test(options.graceSeconds) ? Number(options.graceSeconds) * 1000 : Infinity;
        if (grace > MAX_ROTATION_GRACE_MS)
          throw new CliFailure(
            `--grace-seconds must be a whole number from 0 to 604800, got "${options.graceSeconds}"`,
          );
        const { record, previous, secret } = orFail(await useCases.rotateToken.execute(OPERATOR, options.id, grace));
        print(
          `Token ${record.id} replaces ${previous.id}, which stops at ${new Date(previous.rotationEndsAt!).toISOString()}`,
        );
        print('The secret below is shown only now:');
        print(secret);
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
        withUseCases(async (useCases) => {
          const updated = orFail(await useCases.updateToken.execute(OPERATOR, options.id, { disabled }));
          print(`${disabled ? 'Disabled' : 'Enabled'} token ${updated.id} (${updated.prefix}…) of ${updated.username}`);
        }),
      );
  }
}
