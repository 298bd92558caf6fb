import { Option, type Command } from 'commander';
import { OPERATOR } from '../../domain/identity/actor.js';
import type { CommandTools } from '../../platform/cli/commands.js';
import { GRANULARITIES, GROUPINGS, type Granularity, type Grouping } from './domain/usage.js';
import type { UsageRequest } from './domain/read-usage.js';
import { instantFlag } from '../../platform/cli/instant-flag.js';
import type { UsageUseCases } from './usage-module.js';

interface RangeOptions {
  readonly from?: string;
  readonly to?: string;
  readonly by?: Granularity;
  readonly group?: Grouping;
}

/** `--from` and `--to` as the HTTP routes read them, refused in one line before the database is opened. */
function requestOf({ from, to, by, group }: RangeOptions): UsageRequest {
  return { from: instantFlag('--from', from), to: instantFlag('--to', to), by, group };
}

const withRange = (command: Command): Command =>
  command
    .option(
      '--from <instant>',
      'from this date or time (ISO 8601); default: 24 hours (by hour) or 30 days (by day) ago',
    )
    .option('--to <instant>', 'up to this date or time (ISO 8601); default: now')
    .addOption(new Option('--by <bucket>', 'hour or day; default: hour').choices([...GRANULARITIES]))
    .addOption(new Option('--group <what>', 'operation or status class').choices([...GROUPINGS]));

/** `usage token|user`: a token's or a user's requests over time, as GET /api/token/usage and /api/user/usage answer. */
export function usageCommands(
  program: Command,
  { withUseCases, orFail, printJson }: CommandTools<UsageUseCases>,
): void {
  const usage = program.command('usage').description("read a token's or a user's usage history as JSON");
  withRange(usage.command('token').description("a token's requests by hour or day").requiredOption('--id <id>')).action(
    (options: RangeOptions & { id: string }) => {
      const request = requestOf(options);
      return withUseCases(async ({ readUsage }) =>
        printJson(orFail(await readUsage.ofToken(OPERATOR, options.id, request))),
      );
    },
  );
  withRange(
    usage.command('user').description("a user's requests over all their tokens").requiredOption('--username <name>'),
  ).action((options: RangeOptions & { username: string }) => {
    const request = requestOf(options);
    return withUseCases(async ({ readUsage }) =>
      printJson(orFail(await readUsage.ofUser(OPERATOR, { username: options.username }, request))),
    );
  });
}
