import { Option, type Command } from 'commander';
import { AUDIT_ACTIONS, type AuditAction } from '../../domain/audit.js';
import { OPERATOR } from '../../domain/identity/actor.js';
import { CliFailure } from '../../platform/cli/cli-failure.js';
import type { CommandTools } from '../../platform/cli/commands.js';
import { instantFlag } from '../../platform/cli/instant-flag.js';
import type { AuditUseCases } from './audit-module.js';
import { DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from './domain/read-audit.js';

interface ListOptions {
  readonly actor?: string;
  readonly target?: string;
  readonly action?: AuditAction;
  readonly from?: string;
  readonly to?: string;
  readonly limit?: string;
  readonly cursor?: string;
}

const pageSize = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const limit = /^[0-9]{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= MAX_AUDIT_PAGE))
    throw new CliFailure(`--limit must be a whole number from 1 to ${MAX_AUDIT_PAGE}, got "${text}"`);
  return limit;
};

/** `audit list`: the audit trail as JSON, as GET /api/audit answers it, with the same filters. */
export function auditCommands(
  program: Command,
  { withUseCases, orFail, printJson }: CommandTools<AuditUseCases>,
): void {
  const audit = program.command('audit').description('read the audit trail');
  audit
    .command('list')
    .description('entries newest first, as JSON ({entries, nextCursor})')
    .option('--actor <uid>', 'only what this user did')
    .option('--target <id>', 'only what was done to this user (uid) or token (id)')
    .addOption(new Option('--action <action>', 'only this action').choices([...AUDIT_ACTIONS]))
    .option('--from <instant>', 'only entries at or after this date or time (ISO 8601)')
    .option('--to <instant>', 'only entries before this date or time (ISO 8601)')
    .option('--limit <n>', `entries per page, 1 to ${MAX_AUDIT_PAGE}; default ${DEFAULT_AUDIT_PAGE}`)
    .option('--cursor <cursor>', 'the nextCursor of the page before, with the same filters')
    .action((options: ListOptions) => {
      const request = {
        actor: options.actor,
        target: options.target,
        action: options.action,
        from: instantFlag('--from', options.from),
        to: instantFlag('--to', options.to),
        limit: pageSize(options.limit),
        cursor: options.cursor,
      };
      return withUseCases(async ({ readAudit }) => printJson(orFail(await readAudit.list(OPERATOR, request))));
    });
}
