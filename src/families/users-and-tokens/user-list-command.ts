import { Option, type Command } from 'commander';
import { OPERATOR } from '../../domain/identity/actor.js';
import type { User } from '../../domain/identity/user.js';
import { CliFailure } from '../../platform/cli/cli-failure.js';
import type { CommandTools } from '../../platform/cli/commands.js';
import { MAX_USER_PAGE, type UserListing } from './domain/users/list-users.js';
import type { UsersAndTokensUseCases } from './users-and-tokens-module.js';

interface ListOptions {
  query?: string;
  blocked?: 'true' | 'false';
  permission?: string;
  limit?: string;
  cursor?: string;
}

/**
 * `user list`: the same listing as `GET /api/user/list`, newest first. Without `--limit`, every
 * user that passes the filters, page after page; with it, one page, and the cursor of the next.
 */
export function userListCommand(
  user: Command,
  { print, orFail, withUseCases }: CommandTools<UsersAndTokensUseCases>,
  describeUser: (user: User) => string,
): void {
  user
    .command('list')
    .description('list users, newest first: every one, or a page with --limit')
    .option('--query <prefix>', 'only users whose username, email or name begins with it (case and accents ignored)')
    .addOption(
      new Option('--blocked <flag>', 'only blocked (true) or unblocked (false) users').choices(['true', 'false']),
    )
    .option('--permission <permission>', 'only users who hold it, wildcards counted')
    .option('--limit <n>', `one page of at most n users (1 to ${MAX_USER_PAGE}), then the cursor of the next`)
    .option('--cursor <cursor>', 'the page after the one that printed this cursor')
    .action((options: ListOptions) => {
      // Flags are read before the database is opened: a mistyped one costs nothing.
      const limit =
        options.limit === undefined ? undefined : /^\d{1,9}$/.test(options.limit) ? Number(options.limit) : NaN;
      if (Number.isNaN(limit))
        throw new CliFailure(
          `Invalid --limit: it must be a whole number from 1 to ${MAX_USER_PAGE}, got "${options.limit}"`,
        );
      const listing: UserListing = {
        query: options.query,
        blocked: options.blocked === undefined ? undefined : options.blocked === 'true',
        permission: options.permission,
        cursor: options.cursor,
      };
      return withUseCases(async (useCases) => {
        if (limit !== undefined) {
          const page = orFail(await useCases.listUsers.execute(OPERATOR, { ...listing, limit }));
          for (const each of page.users) print(describeUser(each));
          if (page.nextCursor !== null) print(`next page: --cursor ${page.nextCursor}`);
          return;
        }
        let cursor = listing.cursor;
        do {
          const page = orFail(await useCases.listUsers.execute(OPERATOR, { ...listing, cursor, limit: MAX_USER_PAGE }));
          for (const each of page.users) print(describeUser(each));
          cursor = page.nextCursor ?? undefined;
        } while (cursor !== undefined);
      });
    });
}
