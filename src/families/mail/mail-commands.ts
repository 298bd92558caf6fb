import { Option, type Command } from 'commander';
import { OPERATOR } from '../../domain/identity/actor.js';
import { statusViewOf } from './domain/manage-mail.js';
import { mailboxText } from './domain/mailboxes.js';
import { MESSAGE_ID, MESSAGE_ID_RULE, MESSAGE_STATUSES } from './domain/message.js';
import type { Attachment } from './domain/attachments.js';
import type { OutboxMessage } from './domain/ports.js';
import type { MailUseCases } from './mail-module.js';
import { CliFailure } from '../../platform/cli/cli-failure.js';
import type { CommandTools } from '../../platform/cli/commands.js';

type MailCommandTools = CommandTools<MailUseCases>;

const DEFAULT_LIMIT = 100;

const iso = (time: number | null): string | null => (time === null ? null : new Date(time).toISOString());

/** A message whole, as the operator sees it: everything stored but the lease, and of its attachments what they are, not their bytes. */
const shownWhole = (message: OutboxMessage & { readonly attachments: readonly Attachment[] }) => ({
  ...statusViewOf(message),
  messageId: message.messageId,
  from: message.fromName === null ? message.fromAddress : `${message.fromName} <${message.fromAddress}>`,
  cc: message.cc,
  bcc: message.bcc,
  replyTo: message.replyTo,
  senderUserId: message.senderUserId,
  variables: message.variables,
  content: message.content,
  attachments: message.attachments.map(({ filename, contentType, content }) => ({
    filename,
    contentType,
    bytes: content.length,
  })),
});

/** The id as typed, or one line saying what an id looks like. */
function messageId(id: string): string {
  if (!MESSAGE_ID.test(id)) throw new CliFailure(`Invalid ID: it must be ${MESSAGE_ID_RULE}, as mail list shows it`);
  return id;
}

/** `mail list|show|retry`: the outbox as the operator sees it, through the same use cases as the API. */
export function mailCommands(program: Command, { print, withUseCases, orFail }: MailCommandTools): void {
  const mail = program.command('mail').description('look into the mail outbox; retry a failed message');

  mail
    .command('list')
    .description('list messages, newest first: id, status, attempts, created, recipients, subject')
    .addOption(new Option('--status <status>', 'only messages of this status').choices(MESSAGE_STATUSES))
    .option('--limit <n>', `at most this many (default ${DEFAULT_LIMIT})`)
    .action((options: { status?: string; limit?: string }) =>
      withUseCases(async (useCases) => {
        const limit =
          options.limit === undefined
            ? DEFAULT_LIMIT
            : /^\d{1,9}$/.test(options.limit)
              ? Number(options.limit)
              : Number.NaN;
        if (!(limit >= 1))
          throw new CliFailure(`Invalid --limit: it must be a whole number of at least 1, got "${options.limit}"`);
        const messages = orFail(await useCases.messageReader.list(OPERATOR, { status: options.status, limit }));
        for (const message of messages) {
          print(
            `${message.id}  ${message.status.padEnd(6)}  ${String(message.attempts).padStart(2)}  ${iso(message.createdAt)}  ${message.to.map(mailboxText).join(', ')}  ${message.subject}`,
          );
        }
        print(`${messages.length} listed`);
      }),
    );

  mail
    .command('show')
    .description('show one message as JSON, its content and variables included')
    .argument('<id>', 'as mail list or POST /mail/send gave it')
    .action((id: string) =>
      withUseCases(async (useCases) => {
        const message = orFail(await useCases.messageReader.show(OPERATOR, messageId(id)));
        print(JSON.stringify(shownWhole(message), null, 2));
      }),
    );

  mail
    .command('retry')
    .description('queue a failed message again, due now, with a fresh count of attempts')
    .argument('<id>', 'as mail list gave it')
    .action((id: string) =>
      withUseCases(async (useCases) => {
        const message = orFail(await useCases.retryMessage.execute(OPERATOR, messageId(id)));
        print(`Queued ${message.id} again; a running server sends it at its next look at the outbox`);
      }),
    );
}
