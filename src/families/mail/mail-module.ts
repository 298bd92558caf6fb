import type { MailSettings } from './mail-settings.js';
import { randomUUID } from 'node:crypto';
import { ContainerModule } from 'inversify';
import { MailOutboxDepth } from '../../platform/pipeline/ports.js';
import { join } from 'node:path';
import { mailRoutes } from './mail-routes.js';
import { EmlFileMailer } from './adapters/eml-file-mailer.js';
import { MemoryMailer } from './adapters/memory-mailer.js';
import { SmtpMailer } from './adapters/smtp-mailer.js';
import { MarkdownItRenderer } from './adapters/markdown/markdown-it-renderer.js';
import { DeliverMail } from './domain/deliver-mail.js';
import { MessageReader, RetryMessage } from './domain/manage-mail.js';
import { Mailer, MarkdownRenderer, Outbox } from './domain/ports.js';
import { SendMail } from './domain/send-mail.js';
import { MailSending } from './domain/index.js';
import { Clock, Randomness } from '../../domain/ports.js';
import {
  InMemoryAuditTrail,
  Log,
  RouteContribution,
  SqlStorage,
  useCasesIdentifier,
} from '../../wiring/identifiers.js';
import { KnexOutbox } from './adapters/knex-outbox.js';
import { MemoryOutbox } from './adapters/memory-outbox.js';
import { LifecycleComponent } from '../../platform/lifecycle.js';
import { MailWorker } from './mail-worker.js';
import { identifier } from '../../domain/identifier.js';
import { typedBindings } from '../../wiring/typed-binding.js';

export type MailModuleSettings = MailSettings & {
  /** Where `.eml` files go when no SMTP server is configured: `<dataDir>/mail`. */
  readonly dataDir: string;
  /** The whole stop's deadline: the worker gives the messages being sent all of it but a tenth, left for what stops after it. */
  readonly drainDeadlineMs: number;
};

/** What the family offers a library user: sending, reading the outbox, retrying a failed message. */
export interface MailUseCases {
  readonly sendMail: SendMail;
  readonly messageReader: MessageReader;
  readonly retryMessage: RetryMessage;
}
export const MailUseCases = useCasesIdentifier<MailUseCases>('MailUseCases');

/** Tells this process's worker that a message is due now; does nothing where no worker runs. */
type WakeWorker = () => void;
const WakeWorker = identifier<WakeWorker>('WakeMailWorker');

/** Where messages go: SMTP when a server is configured, memory when asked, else `.eml` files. */
function mailerFor({ smtpUrl, smtpConnections, leaseMs, dataDir }: MailModuleSettings): Mailer {
  if (smtpUrl === 'memory') return new MemoryMailer();
  if (smtpUrl === null) return new EmlFileMailer(join(dataDir, 'mail'));
  // A quarter of the lease: a send ends (or fails) well within it, even queued behind another.
  return new SmtpMailer({ url: smtpUrl, connections: smtpConnections, timeoutMs: Math.floor(leaseMs / 4) });
}

/** Mail: the outbox's use cases, the mailer, the delivery worker (unless `worker` is off), the routes. */
export const mailModule = (settings: MailModuleSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    provide(Outbox, [SqlStorage, InMemoryAuditTrail], (sql, trail) =>
      sql ? sql.inTime(new KnexOutbox(sql.db)) : new MemoryOutbox(trail?.events),
    ).inSingletonScope();
    const limits = {
      from: settings.from,
      maxContentBytes: settings.maxContentBytes,
      maxAttachmentBytes: settings.maxAttachmentBytes,
      maxRecipientsPerHour: settings.maxRecipientsPerHour,
      maxRecipientsPerDay: settings.maxRecipientsPerDay,
    };
    constant(Mailer, mailerFor(settings));
    constant(MarkdownRenderer, new MarkdownItRenderer());
    if (settings.worker) {
      provide(
        MailWorker,
        [Outbox, Mailer, MarkdownRenderer, Clock, Randomness, Log],
        (outbox, mailer, markdown, clock, randomness, logger) =>
          new MailWorker(
            new DeliverMail(outbox, mailer, markdown, clock, randomness, settings),
            mailer,
            clock,
            logger,
            {
              // The process's name in leases, never shown: drawn beside the Randomness port so that a
              // seeded one yields the same ids whether or not a worker runs.
              id: randomUUID(),
              concurrency: 2 * settings.smtpConnections,
              sendsAtOnce: settings.smtpConnections,
              pollIntervalMs: settings.pollIntervalMs,
              stopGraceMs: settings.drainDeadlineMs - Math.ceil(settings.drainDeadlineMs / 10),
            },
          ),
      ).inSingletonScope();
      provide(LifecycleComponent, [MailWorker], (worker) => worker);
      provide(WakeWorker, [MailWorker], (worker) => () => worker.wake());
    } else {
      constant(WakeWorker, () => {});
    }
    provide(MailUseCases, [Outbox, Clock, Randomness, WakeWorker], (outbox, clock, randomness, wake) => ({
      sendMail: new SendMail(outbox, clock, randomness, limits, wake),
      messageReader: new MessageReader(outbox),
      retryMessage: new RetryMessage(outbox, clock, wake),
    })).inSingletonScope();
    provide(MailSending, [MailUseCases], ({ sendMail }) => sendMail);
    // The outbox's depth by status, for the metrics of whoever scrapes them.
    provide(MailOutboxDepth, [Outbox], (outbox) => ({ byStatus: () => outbox.countByStatus() }));
    provide(RouteContribution, [MailUseCases], ({ sendMail, messageReader }) => ({
      section: {
        name: 'Mail',
        description: "Send a message through the installation's outbox and follow its delivery.",
      },
      routes: mailRoutes({ sendMail, reader: messageReader }, settings),
    }));
  });
